import RelayKit

/// Every built-in action package. Built-in actions have no package prefix.
public enum BuiltinActions: IntentPackage {
    public static let name = "builtin"
    public static let intents: [any Intent.Type] = []
    public static let includedPackages: [any IntentPackage.Type] = [
        TextActions.self, ListActions.self, DictionaryActions.self, MathActions.self, DateActions.self,
        ScriptingActions.self, InteractionActions.self, WebActions.self, FileActions.self,
        ImageActions.self, DocumentActions.self, DataActions.self, EntityActions.self,
        PhotoLibrary.self, NoteLibrary.self,
    ]
}
