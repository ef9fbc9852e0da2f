import RelayActions
import RelayKit
import RelayLanguage

/// Builds the action registry a command works with.
public enum Registries {
    /// The built-in actions plus `packages`, which a custom runner links in (their actions are
    /// named `PACKAGE.action`).
    public static func make(linking packages: [any IntentPackage.Type] = []) throws(IntentDeclarationError) -> ActionRegistry {
        var registry = ActionRegistry()
        try registry.register(BuiltinActions.self, prefixed: false)
        for package in packages { try registry.register(package, prefixed: true) }
        return registry
    }
}
