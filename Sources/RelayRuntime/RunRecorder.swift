internal import CTicks
import Foundation
import Synchronization
import RelayKit
import RelayEngine
import RelayLanguage

/// What a run's steps did, for the run history (Docs/Runs.md, "Run history"): one tally per step,
/// in the order the steps first ran. A step inside a loop is one tally with counts, not one per
/// iteration, so a run of 100,000 iterations keeps a handful of records.
public final class RunRecorder: Sendable {
    /// How a step's last run ended.
    public enum StepStatus: String, Sendable, Codable {
        case succeeded
        /// It failed and its `on-error` took over.
        case handled
        case failed
        /// Its `if:` was false.
        case skipped
        /// The run was stopped (a signal, its time bound, a person's no) while it ran.
        case stopped
    }

    /// One step's tally.
    public struct StepRecord: Sendable, Equatable {
        /// `file:line:column` of the step's action name or keyword.
        public var place: String
        public var name: String
        public var status: StepStatus
        /// How often the step ran (a loop's body runs once per item), was skipped, and failed.
        public var runs: Int
        public var skipped: Int
        public var failures: Int
        /// Attempts over all its runs: more than `runs` when `retry:` tried it again.
        public var attempts: Int
        /// Time spent in the step over all its runs.
        public var seconds: Double
        /// The type and a short preview of its last output.
        public var outputType: String?
        public var preview: String?
        /// Its last error, and where that error points.
        public var error: String?
        public var errorPlace: String?

        public init(
            place: String, name: String, status: StepStatus, runs: Int = 0, skipped: Int = 0, failures: Int = 0, attempts: Int = 0,
            seconds: Double = 0, outputType: String? = nil, preview: String? = nil, error: String? = nil, errorPlace: String? = nil
        ) {
            self.place = place
            self.name = name
            self.status = status
            self.runs = runs
            self.skipped = skipped
            self.failures = failures
            self.attempts = attempts
            self.seconds = seconds
            self.outputType = outputType
            self.preview = preview
            self.error = error
            self.errorPlace = errorPlace
        }
    }

    /// A step's tally while the run goes on: the last output is kept as a value and previewed only
    /// when the records are read, so a step in a loop costs a count, not a text.
    private struct Tally {
        let place: String
        let name: String
        /// The step's file, by the order the run first came to it, and its line and column: the
        /// records are read in that order, so a loop comes before the steps in its body.
        let file: Int
        let line: Int
        let column: Int
        var status = StepStatus.succeeded
        var runs = 0, skipped = 0, failures = 0, attempts = 0
        var ticks: UInt64 = 0
        var output: Value?
        var error: String?
        var errorPlace: String?
    }

    /// Everything that changes, in one value changed in one access under the lock (a class's
    /// stored properties are checked for exclusive access one by one, which a step in a tight loop
    /// would pay for each count).
    private struct State {
        var tallies: [Tally] = []
        var byStep: [ObjectIdentifier: Int] = [:]
        /// The steps of a loop's body come round again and again: a small cache by address
        /// spares them the dictionary's hashing.
        var cache: [(key: ObjectIdentifier, index: Int)?] = Array(repeating: nil, count: 8)
        var files: [String: Int] = [:]
        /// When the records were last handed to `save`, in nanoseconds, and when the clock was
        /// last looked at for that, in ticks (at most every million ticks: a millisecond or less).
        var lastSave: UInt64 = 0
        var lastLook: UInt64 = 0

        mutating func index(of step: PlannedStep) -> Int {
            let key = ObjectIdentifier(step)
            let slot = Int(truncatingIfNeeded: UInt(bitPattern: key) >> 4) & 7
            if let entry = cache[slot], entry.key == key { return entry.index }
            let index = byStep[key] ?? add(step, key)
            cache[slot] = (key, index)
            return index
        }

        private mutating func add(_ step: PlannedStep, _ key: ObjectIdentifier) -> Int {
            let path = step.range.file.path
            let file = files[path] ?? files.count
            files[path] = file
            tallies.append(
                Tally(place: RunRecorder.place(step.range), name: step.displayName, file: file, line: step.range.start.line, column: step.range.start.column))
            byStep[key] = tallies.count - 1
            return tallies.count - 1
        }
    }

    /// The counts, and the run's secrets (masked in the records' previews and errors), under one
    /// lock taken once a step.
    private let guarded: Mutex<(state: State, secrets: RunSecrets?)>
    private let saveInterval: UInt64
    private let save: (@Sendable ([StepRecord]) -> Void)?

    /// A recorder that hands its records to `save` at most every `saveInterval` while the run
    /// goes on, so that a run killed outright still shows the steps it got through.
    public init(saveInterval: Duration = .seconds(1), save: (@Sendable ([StepRecord]) -> Void)? = nil) {
        let (seconds, attoseconds) = saveInterval.components
        self.saveInterval = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        self.save = save
        var state = State()
        state.lastSave = Self.nanoseconds
        state.lastLook = Self.now
        guarded = Mutex((state, nil))
    }

    /// A moment, for `finished`'s duration: the processor's tick counter, which reads in a few
    /// nanoseconds where the system's clock takes fifty (a tenth of a step in a tight loop, read
    /// twice a step). Ticks become seconds by the rate measured over the run (`records`).
    static var now: UInt64 { relay_ticks() }

    /// The monotonic clock in nanoseconds.
    private static var nanoseconds: UInt64 {
        #if canImport(Darwin)
            return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
        #endif
    }

    /// When the recorder began, in ticks and in nanoseconds: the rate of ticks is measured from it.
    private let startTicks = RunRecorder.now
    private let startNanoseconds = RunRecorder.nanoseconds

    /// Seconds per tick, measured from the recorder's start to now; a tick is a nanosecond where
    /// the counter is the clock, or before enough time has passed to measure.
    private var secondsPerTick: Double {
        if relay_ticks_are_nanoseconds() != 0 { return 1e-9 }
        let ticks = Self.now &- startTicks
        let nanoseconds = Self.nanoseconds &- startNanoseconds
        guard nanoseconds > 1_000_000, ticks > 0 else { return 1e-9 }
        return Double(nanoseconds) / Double(ticks) / 1e9
    }

    /// Counts one run of `step`, begun at `started` (`now`), that tried `attempts` times.
    /// An output made from a secret (`labelled`) is kept as `•••`, whatever its form.
    func finished(
        _ step: PlannedStep, status: StepStatus, started: UInt64, attempts: Int = 1, output: Value? = nil, error: RuntimeError? = nil,
        labelled: Bool = false
    ) {
        let output = labelled && output != nil ? .text(RunSecrets.mask) : output
        let ended = Self.now
        let checking = save == nil ? nil : ended
        let due = guarded.withLock {
            Self.count(step, status, ticks: ended &- started, attempts, output, error, in: &$0.state, checkingSaveAt: checking, every: saveInterval)
        }
        if due, let save { save(records) }
    }

    /// Counts a run of `step` in `state`; whether the records are due to be saved.
    private static func count(
        _ step: PlannedStep, _ status: StepStatus, ticks: UInt64, _ attempts: Int, _ output: Value?, _ error: RuntimeError?,
        in state: inout State, checkingSaveAt now: UInt64?, every interval: UInt64
    ) -> Bool {
        let index = state.index(of: step)
        state.tallies[index].status = status
        if status == .skipped {
            state.tallies[index].skipped += 1
        } else {
            state.tallies[index].runs += 1
            state.tallies[index].attempts += attempts
            state.tallies[index].ticks &+= ticks
        }
        if let output { state.tallies[index].output = output }
        if status == .failed || status == .handled || status == .stopped {
            state.tallies[index].failures += 1
            if let error {
                state.tallies[index].error = error.message
                state.tallies[index].errorPlace = error.range.map(place)
            }
        }
        guard let now, now &- state.lastLook >= 1_000_000 else { return false }
        state.lastLook = now
        let clock = nanoseconds
        guard clock &- state.lastSave >= interval else { return false }
        state.lastSave = clock
        return true
    }

    /// Masks `secrets` in the records from now on (Docs/Runs.md, "Secrets").
    public func masking(_ secrets: RunSecrets) {
        guarded.withLock { $0.secrets = secrets }
    }

    /// The steps' records: by file, in the order the run came to each, then by place in the file.
    public var records: [StepRecord] {
        let perTick = secondsPerTick
        let (unsorted, secrets) = guarded.withLock { ($0.state.tallies, $0.secrets) }
        let tallies = unsorted.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        let masking = secrets.flatMap { $0.isEmpty ? nil : $0 }
        return tallies.map { tally in
            StepRecord(
                place: tally.place, name: tally.name, status: tally.status, runs: tally.runs, skipped: tally.skipped, failures: tally.failures,
                attempts: tally.attempts, seconds: Double(tally.ticks) * perTick, outputType: tally.output.map { $0.type.name },
                preview: tally.output.flatMap { Self.preview($0, masking: masking) }, error: tally.error.map { masking?.redact($0) ?? $0 },
                errorPlace: tally.errorPlace)
        }
    }

    /// `file:line:column`.
    static func place(_ range: SourceRange) -> String {
        "\(range.file.path):\(range.start.line):\(range.start.column)"
    }

    /// A line of at most 80 characters saying what `value` is, for values that say so cheaply;
    /// nil for nothing and for values (images, documents) whose text would have to be made.
    public static func preview(_ value: Value, masking secrets: RunSecrets? = nil) -> String? {
        let text: String
        switch value {
        case .nothing, .richText, .entity: return nil
        case .text(let string): text = string
        case .number, .boolean, .date, .url: text = value.textValue
        case .file(let file): text = file.path
        case .list(let items): text = "\(items.count) item\(items.count == 1 ? "" : "s")"
        case .dictionary(let dictionary): text = "\(dictionary.count) key\(dictionary.count == 1 ? "" : "s")"
        }
        // At most 81 characters are looked at, however long the text (a save comes every second);
        // a secret is masked before the text is cut, so that no part of one is kept.
        if let secrets {
            let (start, more) = secrets.redactedStart(of: text, limit: 80)
            let line = start.prefix { $0 != "\n" && $0 != "\r" }
            return String(line) + (more || line.endIndex != start.endIndex ? "…" : "")
        }
        let line = text.prefix(81).prefix { $0 != "\n" && $0 != "\r" }
        let more = line.count > 80 || line.endIndex != text.endIndex
        return String(line.prefix(80)) + (more ? "…" : "")
    }
}
