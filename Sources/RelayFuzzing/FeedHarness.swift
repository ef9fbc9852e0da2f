import Foundation
import RelayActions

/// An RSS or Atom feed from a server: read into items, what they hold is no more than the feed
/// gave (an entity within entities is not expanded).
enum FeedHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        guard let items = try? FeedReader.items(from: Data(bytes), limit: 1000) else { return nil }
        let held = items.reduce(0) { $0 + $1.title.utf8.count + $1.link.utf8.count + $1.published.utf8.count + $1.summary.utf8.count }
        // Each field's text is some of the feed's own characters, unescaped: never more than
        // four times the feed's bytes in all (a field may be read twice: a link's text and href).
        if held > bytes.count * 4 + 16 { return "\(items.count) items hold \(held) bytes of text from a feed of \(bytes.count)" }
        return nil
    }
}
