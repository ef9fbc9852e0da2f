import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// What `relay check` reports of a workflow, for the command and for `relay lsp` alike.
enum WorkflowChecking {
    /// The diagnostics of a loaded workflow: its load's, then what its run would stop on before
    /// its first step (a secret not set) and what it would refuse without a terminal.
    static func diagnostics(of workflow: CheckedWorkflow?, loaded: [Diagnostic], secrets: RunSecrets) async -> [Diagnostic] {
        var all = loaded
        // A secret that is not set fails the run before its first step: said now (Docs/Runs.md, "Secrets").
        if let workflow { all += await SecretBinding.bind(workflow, into: secrets, from: SecretStore.source) }
        // What the run would refuse without a terminal, said where it is written.
        for (step, action) in workflow?.actionSteps ?? [] where action.definition.isForegroundOnly {
            all.append(
                Diagnostic(
                    .note, "'\(action.definition.name)' may need a person to answer it: without a terminal, run with --answer 'PROMPT=ANSWER' or --yes",
                    at: step.range))
        }
        return all
    }
}
