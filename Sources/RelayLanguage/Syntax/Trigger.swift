import Foundation
import RelayKit

/// One entry of a workflow's `on:` list: what starts a run of it under `relay serve`
/// (Docs/Automations.md).
public struct Trigger: Sendable {
    public enum Kind: Sendable {
        /// `schedule: "30 7 * * 1-5"` or `schedule: { every: 10m }`.
        case schedule(Schedule)
        /// `watch: FOLDER`: a file that settled in the folder.
        case watch(Watch)
        /// `webhook: NAME`: `POST /hooks/NAME`.
        case webhook(Webhook)
    }

    public enum Schedule: Sendable {
        case cron(CronSchedule)
        /// Every so many seconds, counted from the server's start.
        case every(Double)
    }

    public struct Watch: Sendable {
        /// The folder as written, and with `~` expanded.
        public var folder: Name
        public var path: String
        /// Which files: a shell pattern on the name (`*.pdf`), nil for every file.
        public var glob: String?
        public var events: Set<WatchEvent>
    }

    public enum WatchEvent: String, Sendable, CaseIterable {
        case created, changed, removed
    }

    public struct Webhook: Sendable {
        public var name: Name
        /// How long the caller waits for the run's output before it gets `202` and the run's ID.
        public var wait: Double
        /// The most calls a minute; more are answered `429`.
        public var limit: Int
    }

    /// What happens when it fires while a run of the workflow is going.
    public enum Concurrency: String, Sendable, CaseIterable {
        case skip, queue, parallel
    }

    public var kind: Kind
    public var concurrency: Concurrency = .queue
    /// For a schedule: a time missed while the server was down runs once when it starts.
    public var catchUp = false
    /// The entry, for messages.
    public var range: SourceRange

    /// `schedule`, `watch` or `webhook`: the word in the history's and the page's trigger column.
    public var word: String {
        switch kind {
        case .schedule: "schedule"
        case .watch: "watch"
        case .webhook: "webhook"
        }
    }

    /// The keys an entry of `on:` may have.
    static let keys = ["schedule", "watch", "webhook", "glob", "events", "wait", "limit", "concurrency", "catch-up"]

    /// What a webhook's name may be: letters, digits, `-` and `_`, starting with a letter or digit.
    public static func isWebhookName(_ name: String) -> Bool {
        let letterOrDigit = { (scalar: Unicode.Scalar) in scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) }
        guard let first = name.unicodeScalars.first, letterOrDigit(first), name.unicodeScalars.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { letterOrDigit($0) || $0 == "-" || $0 == "_" }
    }

    /// `10m`, `1s`, `2h`, `1d`, `1.5h`: seconds, or nil.
    public static func interval(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last, let scale = units[unit], let number = Double(text.dropLast()), number.isFinite else { return nil }
        return number * scale
    }
}
