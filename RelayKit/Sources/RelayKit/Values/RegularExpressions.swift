import Foundation

/// Builds and runs regular expressions with errors fit for users. Every match goes through here,
/// so that a pattern that would take forever on its input (`(a+)+$`) can be abandoned: ICU calls
/// back while it works, and the work stops as soon as the task is cancelled (a step's `timeout:`,
/// a signal).
public enum RegularExpressions {
    /// `pattern` compiled, or an error naming it.
    public static func make(_ pattern: String, caseSensitive: Bool = true) throws(IntentError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
        } catch {
            throw IntentError("'\(pattern.count > 80 ? pattern.prefix(77) + "…" : Substring(pattern))' is not a valid regular expression")
        }
    }

    /// What is wrong with `pattern`, or nil: the checker's view of a literal pattern.
    @Sendable public static func problem(_ pattern: String) -> String? { IntentError.problem { _ = try make(pattern) } }

    /// The text of every match of `expression` in `text`. See `run` for how long matches end.
    public static func matches(of expression: NSRegularExpression, in text: String) async throws -> [String] {
        try await run(expression, text, limit: .max) { found in
            found.compactMap { Range($0.range, in: text).map { String(text[$0]) } }
        }
    }

    /// The text a capture group took in each match of `expression` in `text`: group `number`
    /// (1-based) or the group called `name`; a group that took part in no match is empty text.
    public static func groups(
        _ group: CaptureGroup, of expression: NSRegularExpression, in text: String
    ) async throws -> [String] {
        switch group {
        case .number(let number):
            // A pattern of no groups has none to take: no range from 1 to 0 is made.
            guard number >= 1, number <= expression.numberOfCaptureGroups else {
                throw IntentError(
                    "the pattern has \(expression.numberOfCaptureGroups) group\(expression.numberOfCaptureGroups == 1 ? "" : "s"); there is no group \(number)")
            }
        case .name(let name):
            let names = groupNames(in: expression.pattern)
            guard names.contains(name) else {
                throw IntentError(
                    "the pattern has no group named '\(name)'\(Suggestions.didYouMean(name, in: names))"
                        + (names.isEmpty ? "; name one with (?<\(name)>…)" : " (its named groups: \(names.joined(separator: ", ")))"))
            }
        }
        return try await run(expression, text, limit: .max) { found in
            found.map { match in
                let range: NSRange =
                    switch group {
                    case .number(let number): match.range(at: number)
                    case .name(let name): match.range(withName: name)
                    }
                return Range(range, in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    /// A capture group, by its number or its name.
    public enum CaptureGroup: Sendable {
        case number(Int)
        case name(String)
    }

    /// The names of the named groups (`(?<year>\d{4})`) of `pattern`, in order.
    public static func groupNames(in pattern: String) -> [String] {
        var names: [String] = []
        var characters = pattern[...]
        while let start = characters.range(of: "(?<") {
            // An escaped parenthesis is text, not a group.
            let before = characters[..<start.lowerBound]
            let escaped = before.reversed().prefix { $0 == "\\" }.count % 2 == 1
            characters = characters[start.upperBound...]
            guard !escaped, let first = characters.first, first.isLetter else { continue }
            let name = characters.prefix { $0.isLetter || $0.isNumber }
            if characters.dropFirst(name.count).first == ">" { names.append(String(name)) }
        }
        return names
    }

    /// Whether `expression` matches anywhere in `text`.
    public static func hasMatch(_ expression: NSRegularExpression, in text: String) async throws -> Bool {
        try await run(expression, text, limit: 1) { !$0.isEmpty }
    }

    /// Whether `expression` matches anywhere in `text`, on the calling thread, for callers that
    /// cannot suspend: stops when the task is cancelled.
    public static func hasMatchNow(_ expression: NSRegularExpression, in text: String) throws(CancellationError) -> Bool {
        guard let found = scan(expression, text, limit: 1, stop: { Task.isCancelled }) else { throw CancellationError() }
        return !found.isEmpty
    }

    /// `text` with every match replaced by `template` (`$1` inserts a captured group).
    public static func replacingMatches(of expression: NSRegularExpression, in text: String, with template: String) async throws
        -> String
    {
        let replaced: String? = try await run(expression, text, limit: .max) { found in
            let source = text as NSString
            // Its size first (in UTF-16 units, at least one byte each): a long replacement of a
            // frequent match is refused before the text is made.
            var size = source.length
            for match in found {
                size += (expression.replacementString(for: match, in: text, offset: 0, template: template) as NSString).length - match.range.length
                if size > Limits.textBytes { return nil }
            }
            var result = ""
            var position = 0
            for match in found {
                result += source.substring(with: NSRange(location: position, length: match.range.location - position))
                result += expression.replacementString(for: match, in: text, offset: 0, template: template)
                position = match.range.location + match.range.length
            }
            return result + source.substring(from: position)
        }
        guard let replaced, replaced.utf8.count <= Limits.textBytes else {
            throw IntentError("a text may be at most \(ByteCount.text(Int64(Limits.textBytes), binary: true)); replacing every match would make a longer one")
        }
        return replaced
    }

    /// Finds up to `limit` matches and makes `finish` of them. A search that takes longer than a
    /// moment on the calling thread is abandoned and done again on a thread of its own
    /// (`BlockingWork`), where the task's cancellation stops it (`CancellationError`).
    private static func run<T: Sendable>(
        _ expression: NSRegularExpression, _ text: String, limit: Int,
        finish: @escaping @Sendable ([NSTextCheckingResult]) -> T
    ) async throws -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds + inlineNanoseconds
        if let found = scan(expression, text, limit: limit, stop: { DispatchTime.now().uptimeNanoseconds > deadline }) {
            return finish(found)
        }
        return try await BlockingWork.run { flag in
            guard let found = scan(expression, text, limit: limit, stop: { flag.isRaised }) else { throw CancellationError() }
            return finish(found)
        }
    }

    /// How long a match may run on the calling thread before it moves to a thread of its own.
    static let inlineNanoseconds: UInt64 = 20_000_000

    /// The matches, or nil when `stop` said to stop before the end. ICU calls back while it
    /// works (`.reportProgress`), which is where `stop` is asked.
    private static func scan(
        _ expression: NSRegularExpression, _ text: String, limit: Int, stop: () -> Bool
    ) -> [NSTextCheckingResult]? {
        var found: [NSTextCheckingResult] = []
        var stopped = false
        withoutActuallyEscaping(stop) { stop in
            expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
                result, _, halt in
                if stop() {
                    stopped = true
                    halt.pointee = true
                    return
                }
                guard let result else { return }
                found.append(result)
                if found.count >= limit { halt.pointee = true }
            }
        }
        return stopped ? nil : found
    }
}
