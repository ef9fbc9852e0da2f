/// A `where`, `sort` or `limit` that cannot be used, found when it is parsed.
public struct FilterError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The property the problem concerns, if one does; the checker points at its key.
    public let property: String?
    /// More to say, shown as a note under the message (the properties there are).
    public let note: String?

    public init(_ message: String, property: String? = nil, note: String? = nil) {
        self.message = message
        self.property = property
        self.note = note
    }

    public var description: String { note.map { "\(message) (\($0))" } ?? message }
}
