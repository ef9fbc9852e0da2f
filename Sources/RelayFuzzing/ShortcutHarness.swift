import Foundation
import RelayActions
import RelayKit
import RelayLanguage
import RelayShortcuts

/// A shortcut file through `relay import --partial`: the property list guard, Foundation's
/// reader, the blocks, the values and the writer. What is written is YAML that reads back, the
/// same bytes each time, and every action a message names is one of the shortcut's.
enum ShortcutHarness {
    private static let actions: [ActionDefinition] = {
        var registry = ActionRegistry()
        try? registry.register(BuiltinActions.self, prefixed: false)
        return registry.actions
    }()

    static func check(_ bytes: [UInt8]) -> String? {
        guard let shortcut = try? Shortcut.read(Data(bytes)) else { return nil }
        let importer = ShortcutImporter(actions: actions)
        let result: ShortcutImport
        do {
            result = try importer.convert(shortcut, name: "fuzz", partial: true)
        } catch {
            guard let action = error.action else { return nil }
            return (1...max(1, shortcut.actions.count)).contains(action) ? nil : "an error at action \(action) of \(shortcut.actions.count)"
        }
        for unmapped in result.unmapped where !(1...shortcut.actions.count).contains(unmapped.number) {
            return "action \(unmapped.number) listed as unmapped, of \(shortcut.actions.count)"
        }
        do {
            _ = try YAMLParser.parse(SourceFile(path: "fuzz.yaml", text: result.yaml))
        } catch {
            return "the workflow written is not YAML that reads: \(error.message)\n\(result.yaml)"
        }
        guard let again = try? importer.convert(shortcut, name: "fuzz", partial: true), again.yaml == result.yaml else {
            return "importing the same shortcut twice wrote different workflows"
        }
        return nil
    }
}
