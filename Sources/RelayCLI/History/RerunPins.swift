import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// What `relay runs rerun` gives the run it starts with an earlier run's `--allow-…` flags: what
/// that run executed (the workflow, its sub-workflows and packages, each with its hash). The flags
/// were given for that code; the moment the new run executes anything else — a sub-workflow in a
/// branch the earlier run did not take, one named by a path computed differently, one changed —
/// the flags are withdrawn, and what the run needs from then on is asked for, or refused without
/// a terminal (Docs/Runs.md, "Running a run again").
struct RerunPins: Sendable {
    /// The earlier run.
    let run: Int64
    /// What it executed, by "kind path", with the hash then.
    let pins: [String: String]

    init(run: Int64, executed: [GrantStore.Pin]) {
        self.run = run
        pins = Dictionary(executed.map { ("\($0.kind) \($0.path)", $0.hash) }) { first, _ in first }
    }

    /// Watches what the run with `gate` executes, and withdraws the command line's grants at the
    /// first thing the earlier run did not execute as it is now.
    func hold(_ gate: AccessGate) {
        let withdrawn = StopFlag()
        gate.observeExecution { executed in
            guard !withdrawn.isRaised, let pin = GrantStore.Pin.of(executed) else { return }
            guard pins["\(pin.kind) \(pin.path)"] != pin.hash else { return }
            withdrawn.raise()
            gate.withdrawCommandLine()
            let what = pins["\(pin.kind) \(pin.path)"] == nil ? "which run \(run) did not execute" : "which has changed since run \(run)"
            StandardStreams.writeError(
                "note: the \(pin.kind) \(ResolvedPath.abbreviated(pin.path)), \(what), is about to run; the run's --allow flags are withdrawn from here on\n")
        }
    }
}
