import RelayKit

/// `retry:` — how many more times a failed step is tried, and how long to wait between tries
/// (Docs/Runs.md, "Retries"). Written `retry: 3` or `retry: { times: 3, delay: 2, backoff: 2,
/// max-delay: 60 }`; every value is a literal, checked before the run.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts after the first.
    public var times: Int
    /// Seconds before the second attempt.
    public var delay: Double
    /// What each wait is multiplied by for the next.
    public var backoff: Double
    /// The longest wait, the server's `Retry-After` included.
    public var maxDelay: Double

    public init(times: Int, delay: Double = Self.defaultDelay, backoff: Double = Self.defaultBackoff, maxDelay: Double = Self.defaultMaxDelay) {
        self.times = times
        self.delay = delay
        self.backoff = backoff
        self.maxDelay = maxDelay
    }

    public static let defaultDelay = 1.0
    public static let defaultBackoff = 1.0
    public static let defaultMaxDelay = 60.0

    /// The keys of the mapping form, each with what it takes, for messages, the schema and docs.
    public static let keys: [(name: String, range: ClosedRange<Double>, summary: String)] = [
        ("times", 0...100, "How many more times to try after the first attempt fails (a whole number)."),
        ("delay", 0...3_600, "Seconds to wait before the second attempt (default 1)."),
        ("backoff", 1...10, "What each wait is multiplied by for the next (default 1: the same wait each time)."),
        ("max-delay", 0...86_400, "The longest wait, a server's Retry-After included (default 60)."),
    ]

    /// Seconds to wait after failed attempt `attempt` (1 for the first), before the next; `asked`:
    /// what the failure asked for (an HTTP `Retry-After`), which wins, within `maxDelay`.
    public func wait(after attempt: Int, asked: Double?) -> Double {
        if let asked, asked.isFinite, asked >= 0 { return min(asked, maxDelay) }
        var wait = delay
        for _ in 1..<max(attempt, 1) {
            wait *= backoff
            if wait >= maxDelay { break }
        }
        return min(wait, maxDelay)
    }

    /// The policy `node` writes, or the problems with it (each with where).
    public static func parse(_ node: YAMLNode) -> Result<RetryPolicy, RetryProblems> {
        var problems = RetryProblems()
        switch node.kind {
        case .scalar:
            guard let times = whole(node, "retry", &problems) else { return .failure(problems) }
            return .success(RetryPolicy(times: times))
        case .mapping(let pairs):
            var policy = RetryPolicy(times: -1)
            for pair in pairs {
                let key = pair.key.scalarText ?? ""
                switch key {
                case "times": policy.times = whole(pair.value, "times", &problems) ?? 0
                case "delay": policy.delay = number(pair.value, "delay", &problems) ?? defaultDelay
                case "backoff": policy.backoff = number(pair.value, "backoff", &problems) ?? defaultBackoff
                case "max-delay": policy.maxDelay = number(pair.value, "max-delay", &problems) ?? defaultMaxDelay
                default:
                    let names = keys.map(\.name)
                    problems.append(
                        "unknown key '\(key)' in 'retry'\(Suggestions.didYouMean(key, in: names)) (it takes \(names.joined(separator: ", ")))",
                        at: pair.key.range)
                }
            }
            if policy.times < 0, problems.isEmpty {
                problems.append("'retry' needs 'times:', how many more times to try", at: node.range)
            }
            return problems.isEmpty ? .success(policy) : .failure(problems)
        case .sequence:
            problems.append("'retry' takes a number of further attempts (0 to 100), or { times, delay, backoff, max-delay }, not a list", at: node.range)
            return .failure(problems)
        }
    }

    private static func range(of key: String) -> ClosedRange<Double> {
        keys.first { $0.name == key }?.range ?? 0...0
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        "\(NumberFormatting.text(range.lowerBound)) to \(NumberFormatting.text(range.upperBound))"
    }

    /// A number within `key`'s range.
    private static func number(_ node: YAMLNode, _ key: String, _ problems: inout RetryProblems) -> Double? {
        let allowed = range(of: key)
        guard case .number(let value) = ScalarResolver.resolve(node) else {
            problems.append("'\(key)' takes a number of seconds from \(describe(allowed)), not \(node.shapeDescription)", at: node.range)
            return nil
        }
        guard value.isFinite, allowed.contains(value) else {
            let what = key == "backoff" ? "a factor" : "a number of seconds"
            problems.append("'\(key)' takes \(what) from \(describe(allowed)), not \(NumberFormatting.text(value))", at: node.range)
            return nil
        }
        return value
    }

    /// A whole number of further attempts, within `times`' range.
    private static func whole(_ node: YAMLNode, _ key: String, _ problems: inout RetryProblems) -> Int? {
        let allowed = range(of: "times")
        let message = "'\(key)' takes a whole number of further attempts from \(describe(allowed))"
        guard case .number(let value) = ScalarResolver.resolve(node) else {
            let form = key == "retry" ? ", or { times, delay, backoff, max-delay }" : ""
            problems.append("\(message)\(form), not \(node.shapeDescription)", at: node.range)
            return nil
        }
        guard value.isFinite, allowed.contains(value), value == value.rounded() else {
            problems.append("\(message), not \(NumberFormatting.text(value))", at: node.range)
            return nil
        }
        return Int(value)
    }
}

/// What is wrong with a `retry:`, each with where.
public struct RetryProblems: Error, Sendable {
    public var problems: [(message: String, range: SourceRange)] = []
    var isEmpty: Bool { problems.isEmpty }
    mutating func append(_ message: String, at range: SourceRange) { problems.append((message, range)) }
}
