import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// How a secret's value was looked up.
public enum SecretLookup: Sendable, Equatable {
    case found(String)
    case missing
    /// The place it is kept could not be read (a secrets file others may read, say): why.
    case problem(String)
}

/// Looks up the values of secrets by name: the command line's store (the environment, the
/// keyring, the secrets file).
public typealias SecretSource = @Sendable (_ names: [String]) async -> [String: SecretLookup]

/// Gives a workflow the secrets it declares (Docs/Runs.md, "Secrets"): each looked up and added
/// to the run's secrets with its pins, before the first step. One rule for `relay check`,
/// `relay run` and a workflow started by `run-workflow`.
public enum SecretBinding {
    /// Adds `workflow`'s secrets to `secrets`; the problems, each at the place that names the
    /// secret: one not set, one that cannot be read, one whose value is written in the file.
    /// Pins the secrets `workflow`'s `permissions:` pins, that are not pinned yet (the REPL's
    /// `:load` too, which runs a workflow's steps in the session).
    public static func pin(_ workflow: CheckedWorkflow, into secrets: RunSecrets) {
        // Folders as `permissions:` entries are read: from the workflow's folder, `~` at home.
        let folder = URL(fileURLWithPath: workflow.file.path).deletingLastPathComponent()
        for pin in workflow.secretPins where secrets.pins(of: pin.name.text) == nil {
            secrets.pin(
                pin.name.text,
                to: RunSecrets.Pin(
                    hosts: pin.hosts.map(\.text),
                    folders: pin.folders.map { ResolvedPath.resolve(FileReference(path: $0.text, relativeTo: folder).path) },
                    programs: pin.programs.map(\.text)))
        }
    }

    public static func bind(_ workflow: CheckedWorkflow, into secrets: RunSecrets, from source: SecretSource) async -> [Diagnostic] {
        guard !workflow.secrets.isEmpty else { return [] }
        let wanted = workflow.secrets.map(\.text).filter { secrets.value(of: $0) == nil }
        let found = wanted.isEmpty ? [:] : await source(wanted)
        var diagnostics: [Diagnostic] = []
        for name in workflow.secrets where wanted.contains(name.text) {
            switch found[name.text] ?? .missing {
            case .found(let value): secrets.add(name.text, value: value)
            case .missing:
                diagnostics.append(.error(
                    "the secret '\(name.text)' is not set", at: name.range,
                    notes: ["note: set it with 'relay secrets set \(name.text)', or in the environment variable \(name.text)"]))
            case .problem(let why):
                diagnostics.append(.error("the secret '\(name.text)' cannot be read: \(why)", at: name.range))
            }
        }
        pin(workflow, into: secrets)
        // A value written in the file is no secret: it is in the file for anyone who reads it.
        // Said at the secret's name, not where the value is: a file that holds many guesses
        // would otherwise learn which one is the value (Docs/Security.md, "Secrets"). A value of
        // fewer than 8 characters is not looked for: a guess at one is too easy.
        let text = workflow.file.text
        for name in workflow.secrets {
            guard let value = secrets.value(of: name.text), value.count >= 8, text.contains(value) else { continue }
            diagnostics.append(.error(
                "the value of the secret '\(name.text)' is written in the workflow file", at: name.range,
                notes: [
                    "note: a secret's value goes in the environment or 'relay secrets set \(name.text)', and the workflow reads it as ${secrets.\(name.text)}; "
                        + "take it out of the file, and change the secret: anyone who read the file has it"
                ]))
        }
        return diagnostics
    }

    /// The variable `secrets`: each of `workflow`'s secrets by name.
    static func variable(for workflow: CheckedWorkflow, from secrets: RunSecrets) -> Value {
        var entries = ValueDictionary()
        for name in workflow.secrets { entries[name.text] = secrets.value(of: name.text).map(Value.text) ?? .nothing }
        return .dictionary(entries)
    }
}

extension RunSecrets {
    /// `diagnostic` with the secrets in its message and notes masked (its source line is masked
    /// when rendered: `redact(_ text:)`).
    public func redact(_ diagnostic: Diagnostic) -> Diagnostic {
        guard !isEmpty else { return diagnostic }
        var redacted = diagnostic
        redacted.message = redact(diagnostic.message)
        redacted.notes = diagnostic.notes.map { redact($0) }
        return redacted
    }
}
