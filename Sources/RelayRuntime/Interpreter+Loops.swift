import Foundation
import RelayKit
import RelayLanguage

extension Interpreter {
    /// `repeat`: runs the body COUNT times with `index` 1, 2, 3 …; outputs the list of each
    /// iteration's last output (iterations that output nothing add nothing).
    func runRepeat(
        count template: Template, body: [PlannedStep], step: PlannedStep, input: Value, variables: inout Variables
    ) async throws -> Completion {
        let count = try await number(template, variables, what: "repeat", step: step)
        guard count >= 0, count == count.rounded(), count <= Double(Int32.max) else {
            throw RuntimeError(
                "'repeat' takes a whole number of times, not \(NumberFormatting.text(count))", step: step.displayName,
                at: template.range)
        }
        let savedIndex = variables["index"]
        defer { variables["index"] = savedIndex }
        // Each time starts from the loop's input, with its secrets (what the time before left is not it).
        let inputLabels = environment.secrets.isFollowing ? SecretLabels.of("previous", in: variables) : nil
        var results: [Value] = []
        // Grown as results come: a huge count must not reserve memory up front.
        results.reserveCapacity(min(Int(count), 1024))
        let choice = StopChoice.forLoop(body)
        var turns = TurnTaking()
        for index in 0..<Int(count) {
            try Task.checkCancellation()
            await turns.take()
            variables["index"] = .number(Double(index + 1))
            switch try await run(body, input: input, inputLabels: inputLabels, leavesLabels: false, stopChoice: choice, variables: &variables) {
            case .normal(let output):
                if !output.isNothing { results.append(output) }
                if let problem = Value.itemsProblem(results.count, of: "the list of a 'repeat'") {
                    throw RuntimeError(problem, step: step.displayName, at: step.range)
                }
            case .stopped(let output): return .stopped(output)
            }
        }
        return .normal(.list(results))
    }

    /// `for-each`: runs the body once per item with the item in `variable` (default `item`) and
    /// `index`; the item is also the body's input, made from the secrets `itemLabels` names (in a
    /// run that follows secrets). Outputs the list of each iteration's last output.
    func runForEach(
        _ items: [Value], as variable: String, parallel: Template?, body: [PlannedStep], step: PlannedStep,
        itemLabels: SecretNames?, variables: inout Variables
    ) async throws -> Completion {
        let wanted = try await parallelism(parallel, variables, step: step)
        if wanted > 1, items.count > 1 {
            // This task runs one branch; the others need places from the run's pool.
            let extra = environment.parallelSlots.take(upTo: min(wanted, items.count) - 1)
            defer { environment.parallelSlots.give(back: extra) }
            if extra > 0 {
                return try await runInParallel(
                    items, as: variable, width: extra + 1, body: body, step: step, itemLabels: itemLabels, variables: variables)
            }
        }
        let saved = (variables[variable], variables["index"])
        defer {
            variables[variable] = saved.0
            variables["index"] = saved.1
        }
        var results: [Value] = []
        results.reserveCapacity(items.count)
        var progress = LoopProgress(total: items.count)
        let choice = StopChoice.forLoop(body)
        var turns = TurnTaking()
        for (index, item) in items.enumerated() {
            try Task.checkCancellation()
            await turns.take()
            variables[variable] = item
            variables["index"] = .number(Double(index + 1))
            switch try await run(body, input: item, inputLabels: itemLabels, leavesLabels: false, stopChoice: choice, variables: &variables) {
            case .normal(let output): if !output.isNothing { results.append(output) }
            case .stopped(let output): return .stopped(output)
            }
            reportProgress(&progress, done: index + 1, step: step, choice: choice)
        }
        return .normal(.list(results))
    }

    /// Runs iterations concurrently, at most `width` at once, each on its own copy of the variables;
    /// results keep the items' order. A `stop` in any iteration ends the loop with its value.
    private func runInParallel(
        _ items: [Value], as variable: String, width: Int, body: [PlannedStep], step: PlannedStep, itemLabels: SecretNames?,
        variables: Variables
    ) async throws -> Completion {
        try await withThrowingTaskGroup(of: (Int, Completion).self) { group in
            var outputs = [Value?](repeating: nil, count: items.count)
            var next = 0
            var done = 0
            var progress = LoopProgress(total: items.count)
            let choice = StopChoice.forLoop(body)
            func startNext() {
                let index = next
                next += 1
                var copy = variables
                copy[variable] = items[index]
                copy["index"] = .number(Double(index + 1))
                group.addTask {
                    (
                        index,
                        try await self.run(body, input: items[index], inputLabels: itemLabels, leavesLabels: false, stopChoice: choice, variables: &copy)
                    )
                }
            }
            while next < min(width, items.count) { startNext() }
            while let (index, completion) = try await group.next() {
                switch completion {
                case .normal(let output): outputs[index] = output
                case .stopped(let output):
                    group.cancelAll()
                    return .stopped(output)
                }
                done += 1
                reportProgress(&progress, done: done, step: step, choice: choice)
                if next < items.count { startNext() }
            }
            return .normal(.list(outputs.compactMap { $0 }.filter { !$0.isNothing }))
        }
    }

    /// Tells the run's output how far a loop has got (a terminal draws a bar; others ignore it):
    /// at most ten times a second, and at the end, so a loop of 10,000 quick steps does not spend
    /// its time drawing.
    /// A loop chosen by a secret (its list made from one, or inside a branch on one) shows none:
    /// how far it got would tell how long its list is. Nor does one whose iterations may have
    /// been stopped by a step chosen by a secret (`choice`): how far it got would tell where.
    private func reportProgress(_ progress: inout LoopProgress, done: Int, step: PlannedStep, choice: StopChoice?) {
        guard progress.total > 1, SecretLabels.context.isEmpty, choice?.labels.isEmpty ?? true, let label = progress.label(done: done) else { return }
        environment.output.progress(Double(done) / Double(progress.total), label: label, step: step.displayName)
    }

    /// How many iterations of a `parallel` for-each run at once: a number, `true` for one per
    /// processor core, `false` or absent for one.
    private func parallelism(_ template: Template?, _ variables: Variables, step: PlannedStep) async throws(RuntimeError) -> Int {
        guard let template else { return 1 }
        let value = try await Evaluator.evaluate(template, variables)
        if case .boolean(let flag) = value { return flag ? ProcessInfo.processInfo.activeProcessorCount : 1 }
        let width = try await number(template, variables, what: "parallel", step: step)
        guard width >= 1, width == width.rounded() else {
            throw RuntimeError("'parallel' takes a whole number of 1 or more", step: step.displayName, at: template.range)
        }
        return Int(min(width, 1024))
    }
}

/// A loop's turns at the run's threads. A loop of steps that never wait would keep its thread
/// for as long as it runs; a few of them at once (a parallel for-each) would hold every thread
/// of the pool, and then nothing else of the run gets one: not a `timeout:`'s timer, not the other
/// iterations. So a loop gives its thread up at least every few milliseconds.
struct TurnTaking {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastTicks = RunRecorder.now

    mutating func take() async {
        // The clock is read once the processor's tick counter has moved by what 5 ms is at the
        // slowest counter there is (24 MHz): every few tens of microseconds at a faster one, not
        // at every turn of a loop whose steps take less than a microsecond.
        let ticks = RunRecorder.now
        guard ticks &- lastTicks >= 120_000 else { return }
        lastTicks = ticks
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- last >= 5_000_000 else { return }
        await Task.yield()
        last = DispatchTime.now().uptimeNanoseconds
    }
}

/// How far a loop has got, and how fast: "1,200 of 10,000, 850 a second".
struct LoopProgress {
    let total: Int
    private let started = DispatchTime.now().uptimeNanoseconds
    private var shown: UInt64 = 0

    init(total: Int) { self.total = total }

    /// The label to show after `done` iterations, or nil when one was shown less than 0.1 s ago
    /// (the last iteration is always shown, which clears the bar).
    mutating func label(done: Int) -> String? {
        let now = DispatchTime.now().uptimeNanoseconds
        guard done >= total || now &- shown >= 100_000_000 else { return nil }
        shown = now
        let seconds = Double(now &- started) / 1e9
        // A rate under one a second would read "0 a second".
        let perSecond = seconds > 0.5 ? Double(done) / seconds : 0
        let rate = perSecond >= 1 ? ", \(Int(perSecond).formatted()) a second" : ""
        return "\(done.formatted()) of \(total.formatted())\(rate)"
    }
}

/// The secrets that chose whether a step stopped the run, as a run of steps goes on: the steps
/// after it run only because it did not stop, so they are chosen by them too. Shared by a loop's
/// iterations, parallel ones included.
final class StopChoice: @unchecked Sendable {
    /// One for a loop whose body may stop the run; nil for one that cannot (most).
    static func forLoop(_ body: [PlannedStep]) -> StopChoice? {
        body.contains(where: \.mayStop) ? StopChoice() : nil
    }

    private let lock = NSLock()
    private var chosen = SecretNames.none

    var labels: SecretNames { lock.withLock { chosen } }

    func add(_ labels: SecretNames) {
        guard !labels.isEmpty else { return }
        lock.withLock { chosen.formUnion(labels) }
    }
}
