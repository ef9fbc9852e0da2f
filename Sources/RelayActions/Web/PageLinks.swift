import CLibXML2
import Foundation
import RelayKit

/// What a web page points to that Shortcuts' page actions read — its images (`<img src>`) and its
/// feeds (`<link rel="alternate" type="application/rss+xml" href>`, Atom's too) — read with
/// libxml2's HTML parser (no network, repairs broken markup), each made absolute against the
/// page's own URL or its `<base href>`. At most `limit` of each, in the page's order, once each.
package enum PageLinks {
    package struct Links: Equatable, Sendable {
        package var images: [URL] = []
        package var feeds: [URL] = []
        /// Images written relative to the page (`src="a.png"`) in HTML read without its page's
        /// URL: nothing says where they are.
        package var relativeImages = 0
    }

    /// The feed types a `<link rel="alternate">` may name.
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json"]

    package static func links(in data: Data, page: URL?, limit: Int = 1000) throws -> Links {
        let xml = try LibXML2.shared()
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let bytes = [UInt8](data)
        xml.resetLastError()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xml.readMemory($0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        // libxml2 stops reading elements nested past 256 levels, and says so only here: what
        // follows would be lost without a word.
        if xml.lastError().flatMap({ $0.pointee.message }).map({ String(cString: $0).contains("Excessive depth") }) ?? false {
            if let document = parsed ?? nil { xml.freeDocument(document) }
            throw IntentError("the HTML nests elements more than 256 levels deep, past what can be read")
        }
        guard let document = parsed ?? nil else { return Links() }
        defer { xml.freeDocument(document) }
        guard let root = xml.rootElement(document) else { return Links() }
        var base = page, sawBase = false
        var images: [String] = [], feeds: [String] = []
        // Depth first, in the page's order, on a stack of its own: no recursion however deep.
        var pending = [root]
        while let node = pending.popLast(), images.count < limit || feeds.count < limit {
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            switch name(node) {
            case "base" where !sawBase:
                // The first `<base href>` is the page's base, for what comes before it too.
                sawBase = true
                if let href = attribute(node, "href", xml), let resolved = URL(string: href.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: page) {
                    base = resolved.absoluteURL
                }
            case "img":
                if images.count < limit, let source = attribute(node, "src", xml) { images.append(source) }
            case "link":
                let relations = (attribute(node, "rel", xml) ?? "").lowercased().split(whereSeparator: \.isWhitespace)
                let type = (attribute(node, "type", xml) ?? "").lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if feeds.count < limit, relations.contains("alternate"), feedTypes.contains(type), let href = attribute(node, "href", xml) {
                    feeds.append(href)
                }
            default:
                break
            }
            var children: [UnsafeMutablePointer<xmlNode>] = []
            var child = node.pointee.children
            while let current = child {
                children.append(current)
                child = current.pointee.next
            }
            pending += children.reversed()
        }
        var links = Links(images: resolved(images, against: base, schemes: ["http", "https", "data"]), feeds: resolved(feeds, against: base, schemes: ["http", "https"]))
        if base == nil {
            links.relativeImages = Set(images.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }).filter { !$0.isEmpty && URL(string: $0)?.scheme == nil }.count
        }
        return links
    }

    /// `references` made absolute against `base`, those with one of `schemes`, each once.
    private static func resolved(_ references: [String], against base: URL?, schemes: Set<String>) -> [URL] {
        var seen = Set<String>(), result: [URL] = []
        for reference in references {
            let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
                let scheme = url.scheme?.lowercased(), schemes.contains(scheme), seen.insert(url.absoluteString).inserted
            else { continue }
            result.append(url)
        }
        return result
    }

    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String, _ xml: LibXML2) -> String? {
        guard let value = xml.property(node, name) else { return nil }
        defer { xml.free(value) }
        return String(cString: value)
    }
}
