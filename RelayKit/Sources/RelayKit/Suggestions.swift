/// Finds the likely intended name for a misspelt one ("did you mean …?").
public enum Suggestions {
    /// The candidate closest to `name`, if it is close enough to be a plausible typo.
    public static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        let written = Array(lowered.unicodeScalars)
        let allowed = max(1, min(3, (name.count + 2) / 4))
        // Only a candidate within the allowed distance can be the answer, and the distance is at
        // least the difference in length: most candidates are passed over without a table.
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let within = min(allowed, (best?.distance ?? Int.max) - 1)
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - written.count) <= within else { continue }
            let distance = editDistance(written, other)
            if distance <= within { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        // A name typed twice over, or with more after it (`change-casee-case`, `get-item-first`):
        // the longest candidate it starts or ends with, if that is most of a word.
        return candidates.filter { candidate in
            let other = candidate.lowercased()
            return other.count >= 4 && other.count < lowered.count && (lowered.hasPrefix(other) || lowered.hasSuffix(other))
        }.max { $0.count < $1.count }
    }

    /// `; did you mean 'x'?` for a message, or empty text when nothing is close.
    public static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The Damerau–Levenshtein distance (with adjacent transpositions) between two texts.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
