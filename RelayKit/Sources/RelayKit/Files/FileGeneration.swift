import Foundation

/// A process-wide count of the file changes Relay has made (writes, moves, deletions), so that a
/// cache of what is in a folder — such as the search index's last look at the notes — knows to
/// look again after Relay itself changed something.
public enum FileGeneration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count: UInt64 = 0

    /// The number of file changes so far.
    public static var current: UInt64 { lock.withLock { count } }

    /// Counts one more change.
    public static func advance() {
        lock.withLock { count &+= 1 }
        FileChecks.startRound()
    }
}
