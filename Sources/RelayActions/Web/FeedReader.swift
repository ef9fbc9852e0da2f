import CLibXML2
import Foundation
import RelayKit

/// Reads an RSS (2.0 and 1.0) or Atom feed into its items with libxml2's XML reader: no
/// network, no external entity, no DTD; an entity the feed declares is not expanded (its text
/// is left out), so a feed of entities within entities stays small.
package enum FeedReader {
    /// One item of a feed.
    package struct Item: Equatable, Sendable {
        package var title = ""
        package var link = ""
        package var published = ""
        package var summary = ""
    }

    /// The first `limit` items of the feed in `data`.
    package static func items(from data: Data, limit: Int) throws -> [Item] {
        let xml = try LibXML2.shared()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_RECOVER.rawValue)
        let bytes = [UInt8](data)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xml.readXML($0, Int32(buffer.count), nil, nil, options)
            }
        }
        guard let document = parsed ?? nil else { throw IntentError("the feed is not XML that can be read") }
        defer { xml.freeDocument(document) }
        guard let root = xml.rootElement(document) else { throw IntentError("the feed has no elements") }
        let entries: [UnsafeMutablePointer<xmlNode>]
        switch name(root) {
        case "rss": entries = elements(of: elements(of: root).first { name($0) == "channel" } ?? root).filter { name($0) == "item" }
        case "RDF": entries = elements(of: root).filter { name($0) == "item" }
        case "feed": entries = elements(of: root).filter { name($0) == "entry" }
        default: throw IntentError("the XML is not an RSS or Atom feed (its root element is '\(name(root))')")
        }
        return entries.prefix(limit).map { entry in
            var item = Item()
            for field in elements(of: entry) {
                switch name(field) {
                case "title": item.title = text(of: field)
                case "link":
                    // Atom: the alternate link's href; RSS: the element's text.
                    let relation = attribute(field, "rel", xml) ?? "alternate"
                    if let href = attribute(field, "href", xml) {
                        if relation == "alternate" || item.link.isEmpty { item.link = href }
                    } else if item.link.isEmpty {
                        item.link = text(of: field)
                    }
                case "pubDate", "published", "date": item.published = text(of: field)
                case "updated" where item.published.isEmpty: item.published = text(of: field)
                case "description", "summary": if item.summary.isEmpty { item.summary = text(of: field) }
                case "content", "encoded": if item.summary.isEmpty { item.summary = text(of: field) }
                default: break
                }
            }
            item.title = item.title.trimmingCharacters(in: .whitespacesAndNewlines)
            item.link = item.link.trimmingCharacters(in: .whitespacesAndNewlines)
            item.published = item.published.trimmingCharacters(in: .whitespacesAndNewlines)
            item.summary = item.summary.trimmingCharacters(in: .whitespacesAndNewlines)
            return item
        }
    }

    /// An element's name without its namespace's prefix (`dc:date` → `date`).
    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    private static func elements(of node: UnsafeMutablePointer<xmlNode>) -> [UnsafeMutablePointer<xmlNode>] {
        var result: [UnsafeMutablePointer<xmlNode>] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// The text of an element: its text and CDATA, its elements' too (an Atom XHTML content);
    /// not an entity's, which is left unexpanded.
    private static func text(of node: UnsafeMutablePointer<xmlNode>, depth: Int = 0) -> String {
        guard depth < 64 else { return "" }
        var result = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result += String(cString: content) }
            case XML_ELEMENT_NODE:
                result += text(of: current, depth: depth + 1)
            default:
                break
            }
            guard result.utf8.count <= Limits.textBytes else { return result }
            child = current.pointee.next
        }
        return result
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String, _ xml: LibXML2) -> String? {
        guard let value = xml.property(node, name) else { return nil }
        defer { xml.free(value) }
        return String(cString: value)
    }
}

/// `get-rss-items`: the items of an RSS or Atom feed (Shortcuts' Get Items from RSS Feed).
struct GetRSSItems: Intent {
    static let name = "get-rss-items"
    static let title = "Get RSS Items"
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.rss", title: "Get Items from RSS Feed", parameters: ["WFRSSFeedURL": "url", "WFRSSItemQuantity": "count"],
            defaults: ["WFRSSItemQuantity": "10"]),
    ]
    static let summary =
        "Reads the RSS or Atom feed at the input URL: its first items (10 by default), each a dictionary of title, link, published and summary."
    static let examples = [
        IntentExample("- url: https://example.com/feed.xml\n- get-rss-items: 5\n- for-each:\n  do:\n    - text: \"${item.title}: ${item.link}\""),
    ]
    static let output = OutputType.list

    @Parameter(input: true, summary: "The feed's URL.", access: .net) var url: URL
    @Parameter(primary: true, summary: "How many items, 1 to 1000.", check: { (1...1000).contains($0) ? nil : "from 1 to 1000, not \($0)" })
    var count: Int = 10

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let data = try await FetchedPage.fetch(
            url, accept: "application/rss+xml, application/atom+xml, application/xml, text/xml", action: "get-rss-items", context: context
        ).data
        let items = try FeedReader.items(from: data, limit: count)
        return .value(.list(items.map { item in
            var entry = ValueDictionary()
            entry["title"] = .text(item.title)
            entry["link"] = URL(string: item.link).flatMap { $0.scheme == nil ? nil : .url($0) } ?? .text(item.link)
            entry["published"] = .text(item.published)
            entry["summary"] = .text(item.summary)
            return .dictionary(entry)
        }))
    }
}
