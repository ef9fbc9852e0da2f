import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayRuntime
import Synchronization

/// What a tool call's steps show as they go, for the assistant (Docs/Assistants.md, "What a call
/// gives back"): the values of `show`, kept for the call's result, and the progress Relay reports
/// (a loop's items, a copy's bytes), sent as the protocol's progress notifications when the call
/// asked for them with a progress token. Secrets are masked in both, as on a terminal.
final class AssistantOutput: RunOutput, Sendable {
    private let server: MCP.Server
    private let token: ProgressToken?
    private let state = Mutex(State())
    private let sending: AsyncStream<ProgressNotification.Parameters>.Continuation
    private let sender: Task<Void, Never>?

    private struct State {
        var shown = ""
        var cut = false
        var sent = 0
        var lastSent: ContinuousClock.Instant?
    }

    /// The most text of `show` a call's result keeps; more is cut, and the result says so.
    static let mostShown = 1 << 20
    /// Progress is sent at most this often: a loop inside a loop, each of whose ends would be
    /// sent, is not sent faster.
    static let progressInterval: Duration = .milliseconds(100)

    init(server: MCP.Server, token: ProgressToken?) {
        self.server = server
        self.token = token
        let (stream, continuation) = AsyncStream<ProgressNotification.Parameters>.makeStream(bufferingPolicy: .bufferingNewest(64))
        sending = continuation
        // One task sends them all, in order: each progress value is larger than the one before.
        sender =
            token == nil
            ? nil
            : Task {
                for await parameters in stream { try? await server.notify(ProgressNotification.message(parameters)) }
            }
    }

    /// What `show` showed, masked, cut at `mostShown`.
    var shownText: String {
        state.withLock { $0.shown + ($0.cut ? "\n… (what the steps showed was cut at \(Self.mostShown) bytes)\n" : "") }
    }

    func show(_ value: RelayKit.Value) {
        // A value the step made from a secret is shown as ••• whole (Docs/Runs.md, "Secrets").
        let text = AssistantQuestions.masked(OutputFormatter.render(SecretLabels.step.isEmpty ? value : .text(RunSecrets.mask), json: false))
        state.withLock { state in
            guard !state.cut else { return }
            if state.shown.utf8.count + text.utf8.count > Self.mostShown {
                state.cut = true
                return
            }
            state.shown += text
        }
    }

    func trace(_ line: String) {}

    func progress(_ fraction: Double, label: String?, step: String) {
        guard let token else { return }
        let now = ContinuousClock.now
        let count: Int? = state.withLock { state in
            if let last = state.lastSent, now - last < Self.progressInterval { return nil }
            state.lastSent = now
            state.sent += 1
            return state.sent
        }
        guard let count else { return }
        var message = AssistantQuestions.masked([step, label].compactMap { $0 }.joined(separator: ": "))
        if fraction >= 0 { message += " (\(Int((min(fraction, 1) * 100).rounded(.down)))%)" }
        // The count of notifications is the progress: it only grows, though a step's fraction starts again at 0.
        sending.yield(ProgressNotification.Parameters(progressToken: token, progress: Double(count), total: nil, message: message))
    }

    /// The call has ended: what is left to send is sent, and no more.
    func finish() async {
        sending.finish()
        await sender?.value
    }
}
