import CLibXML2
import Foundation
import RelayKit

/// Reads HTML into rich text with libxml2's HTML parser, which repairs real-world markup
/// (unclosed `<p>` and `<li>`, stray tags) the way browsers do. libxml2 is opened on first use
/// (`SharedObject`), not linked: it brings the system's ICU, which every run would otherwise load.
package enum HTMLReader {
    package static func richText(from html: String) throws -> RichText {
        let xml = try LibXML2.shared()
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let bytes = Array(html.utf8)
        xml.resetLastError()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xml.readMemory($0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        // libxml2 stops reading elements nested past 256 levels, and says so only here: the rest
        // of the text would be lost without a word.
        let tooDeep = xml.lastError().flatMap { $0.pointee.message }.map { String(cString: $0).contains("Excessive depth") } ?? false
        guard let document = parsed ?? nil else { throw IntentError("cannot parse the HTML") }
        defer { xml.freeDocument(document) }
        guard let root = xml.rootElement(document) else { return RichText(blocks: []) }
        var builder = Builder(depth: 0)
        // Quotes and lists past their own bound say so first.
        try builder.blocks(in: root)
        if tooDeep { throw IntentError("the HTML nests elements more than 256 levels deep, past what it can be read to") }
        return RichText(blocks: RichText.pruned(builder.finish()))
    }

    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
    }

    private static func children(_ node: UnsafeMutablePointer<xmlNode>) -> [UnsafeMutablePointer<xmlNode>] {
        var result: [UnsafeMutablePointer<xmlNode>] = []
        var child = node.pointee.children
        while let current = child {
            result.append(current)
            child = current.pointee.next
        }
        return result
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
        guard let xml = try? LibXML2.shared(), let value = xml.property(node, name) else { return nil }
        defer { xml.free(value) }
        return String(cString: value)
    }

    private static func content(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        guard let xml = try? LibXML2.shared(), let value = xml.content(node) else { return "" }
        defer { xml.free(value) }
        return String(cString: value)
    }

    /// Collects blocks, gathering loose inline content into paragraphs.
    private struct Builder {
        /// How many quotes and lists the blocks are in.
        let depth: Int
        private var result: [RichText.Block] = []
        private var loose: [RichText.Inline] = []

        init(depth: Int) { self.depth = depth }

        /// A builder for the blocks of a quote or a list item inside this one's, or an error past
        /// `Limits.documentDepth`, as for Markdown: whatever reads the rich text walks it nested.
        func inner() throws -> Builder {
            guard depth < Limits.documentDepth else {
                throw IntentError("the HTML nests quotes and lists more than \(Limits.documentDepth) levels deep")
            }
            return Builder(depth: depth + 1)
        }

        static let skipped: Set<String> = ["head", "script", "style", "title", "template", "noscript", "svg"]
        static let headings = ["h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6]

        mutating func finish() -> [RichText.Block] {
            flushLoose()
            return result
        }

        private mutating func flushLoose() {
            let inlines = HTMLReader.normalized(loose)
            loose = []
            if !inlines.isEmpty { result.append(.paragraph(inlines)) }
        }

        mutating func blocks(in node: UnsafeMutablePointer<xmlNode>) throws {
            for child in HTMLReader.children(node) { try block(child) }
        }

        private mutating func block(_ node: UnsafeMutablePointer<xmlNode>) throws {
            guard node.pointee.type == XML_ELEMENT_NODE else {
                loose += HTMLReader.inlines(node)
                return
            }
            let tag = HTMLReader.name(node)
            if Self.skipped.contains(tag) { return }
            if let level = Self.headings[tag] {
                flushLoose()
                result.append(.heading(level: level, HTMLReader.normalized(HTMLReader.inlines(inside: node))))
                return
            }
            switch tag {
            case "p":
                flushLoose()
                let inlines = HTMLReader.normalized(HTMLReader.inlines(inside: node))
                if !inlines.isEmpty { result.append(.paragraph(inlines)) }
            case "ul", "ol":
                flushLoose()
                // Numbers as CommonMark bounds them (nine digits), so that counting on cannot overflow.
                let start = min(max(HTMLReader.attribute(node, "start").flatMap(Int.init) ?? 1, 0), RichText.largestListStart)
                let itemNodes = HTMLReader.children(node).filter { HTMLReader.name($0) == "li" }
                let items = try itemNodes.map { try HTMLReader.listItem($0, in: inner()) }
                // Items that hold paragraphs (`<li><p>`) make a loose list, as Markdown writes one.
                let loose = itemNodes.contains { HTMLReader.children($0).contains { HTMLReader.name($0) == "p" } }
                result.append(.list(ordered: tag == "ol", start: start, items: items, tight: !loose))
            case "blockquote":
                flushLoose()
                var quote = try inner()
                try quote.blocks(in: node)
                result.append(.quote(quote.finish()))
            case "pre":
                flushLoose()
                let code = HTMLReader.children(node).first { HTMLReader.name($0) == "code" }
                let language = code.flatMap { HTMLReader.attribute($0, "class") }?
                    .split(separator: " ").first { $0.hasPrefix("language-") }.map { String($0.dropFirst(9)) }
                // Line ends as HTML reads them: CR LF and CR are LF.
                var text = HTMLReader.content(node).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                if !text.endsInLineFeed { text += "\n" }
                result.append(.code(language: language, text: text))
            case "hr":
                flushLoose()
                result.append(.rule)
            case "table":
                flushLoose()
                result.append(.table(HTMLReader.table(node)))
            case "div", "section", "article", "main", "header", "footer", "nav", "aside", "body", "html", "figure", "form", "center":
                flushLoose()
                try blocks(in: node)
                flushLoose()
            default:
                loose += HTMLReader.inlines(node)
            }
        }
    }

    private static func listItem(_ node: UnsafeMutablePointer<xmlNode>, in builder: Builder) throws -> RichText.ListItem {
        var checked: Bool?
        if let box = children(node).first(where: { name($0) == "input" && attribute($0, "type") == "checkbox" }) {
            checked = attribute(box, "checked") != nil
        }
        var builder = builder
        try builder.blocks(in: node)
        return RichText.ListItem(checked: checked, blocks: builder.finish())
    }

    private static func table(_ node: UnsafeMutablePointer<xmlNode>) -> RichText.Table {
        var rows: [[[RichText.Inline]]] = []
        var alignments: [RichText.Table.Alignment] = []
        func collect(_ parent: UnsafeMutablePointer<xmlNode>) {
            for child in children(parent) {
                switch name(child) {
                case "thead", "tbody", "tfoot": collect(child)
                case "tr":
                    let cells = children(child).filter { ["td", "th"].contains(name($0)) }
                    if rows.isEmpty {
                        alignments = cells.map { cell in
                            switch attribute(cell, "align")?.lowercased() {
                            case "left": .left
                            case "center": .center
                            case "right": .right
                            default: .none
                            }
                        }
                    }
                    rows.append(cells.map { normalized(inlines(inside: $0)) })
                default: break
                }
            }
        }
        collect(node)
        return RichText.Table(alignments: alignments, rows: rows)
    }

    private static func inlines(inside node: UnsafeMutablePointer<xmlNode>) -> [RichText.Inline] {
        children(node).flatMap { inlines($0) }
    }

    private static func inlines(_ node: UnsafeMutablePointer<xmlNode>) -> [RichText.Inline] {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            return [.text(content(node))]
        case XML_ELEMENT_NODE:
            let inner = { inlines(inside: node) }
            switch name(node) {
            case "b", "strong": return [.bold(inner())]
            case "i", "em", "cite", "var": return [.italic(inner())]
            case "s", "del", "strike": return [.strikethrough(inner())]
            case "code", "tt", "kbd", "samp": return [.code(content(node))]
            case "a":
                guard let href = attribute(node, "href") else { return inner() }
                // As browsers read a URL: without tabs and line breaks, and without spaces at its ends.
                let url = href.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
                return [.link(url: String(String.UnicodeScalarView(url)).trimmingCharacters(in: .whitespaces), inner())]
            case "br": return [.lineBreak]
            case "img": return attribute(node, "alt").map { [.text($0)] } ?? []
            case "input": return []
            case _ where Builder.skipped.contains(name(node)): return []
            default: return inner()
            }
        default:
            return []
        }
    }

    /// Collapses white space as browsers do, trims the ends, and merges adjacent texts.
    static func normalized(_ inlines: [RichText.Inline]) -> [RichText.Inline] {
        var result: [RichText.Inline] = []
        func append(_ inline: RichText.Inline) {
            // An element with no text in it (`<b></b>`, `<code></code>`, `<a href=…></a>`) shows nothing.
            if RichText.plainText(of: [inline]).isEmpty { return }
            if case .text(let next) = inline, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + next)
            } else {
                result.append(inline)
            }
        }
        for inline in inlines {
            switch inline {
            case .text(let text):
                let collapsed = text.replacingOccurrences(of: "[ \\t\\r\\n]+", with: " ", options: .regularExpression)
                if !collapsed.isEmpty { append(.text(collapsed)) }
            case .bold(let inner): append(.bold(collapse(inner)))
            case .italic(let inner): append(.italic(collapse(inner)))
            case .strikethrough(let inner): append(.strikethrough(collapse(inner)))
            case .link(let url, let title, let inner): append(.link(url: url, title: title, collapse(inner)))
            default: append(inline)
            }
        }
        // Trim the paragraph's ends and the spaces around line breaks.
        while case .text(let text)? = result.first, text.first == " " {
            let trimmed = String(text.drop { $0 == " " })
            if trimmed.isEmpty { result.removeFirst() } else { result[0] = .text(trimmed) }
        }
        while case .text(let text)? = result.last, text.last == " " {
            let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
            if trimmed.isEmpty { result.removeLast() } else { result[result.count - 1] = .text(trimmed) }
        }
        for index in result.indices where index > 0 {
            if case .lineBreak = result[index - 1], case .text(let text) = result[index], text.first == " " {
                result[index] = .text(String(text.dropFirst()))
            }
        }
        return result
    }

    /// White space collapsed inside an element, and what holds no text left out.
    private static func collapse(_ inlines: [RichText.Inline]) -> [RichText.Inline] {
        inlines.compactMap { inline in
            let collapsed: RichText.Inline = switch inline {
            case .text(let text): .text(text.replacingOccurrences(of: "[ \\t\\r\\n]+", with: " ", options: .regularExpression))
            case .bold(let inner): .bold(collapse(inner))
            case .italic(let inner): .italic(collapse(inner))
            case .strikethrough(let inner): .strikethrough(collapse(inner))
            case .link(let url, let title, let inner): .link(url: url, title: title, collapse(inner))
            default: inline
            }
            return RichText.plainText(of: [collapsed]).isEmpty ? nil : collapsed
        }
    }
}

/// The libxml2 functions Relay calls, looked up once.
struct LibXML2: @unchecked Sendable {
    typealias ReadMemory = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<xmlDoc>?
    typealias FreeDocument = @convention(c) (UnsafeMutablePointer<xmlDoc>?) -> Void
    typealias RootElement = @convention(c) (UnsafePointer<xmlDoc>?) -> UnsafeMutablePointer<xmlNode>?
    typealias Property = @convention(c) (UnsafePointer<xmlNode>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<UInt8>?
    typealias Content = @convention(c) (UnsafePointer<xmlNode>?) -> UnsafeMutablePointer<UInt8>?
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias FreeFunctionLocation = @convention(c) () -> UnsafeMutablePointer<Free?>?
    typealias LastError = @convention(c) () -> UnsafePointer<xmlError>?
    typealias ResetLastError = @convention(c) () -> Void

    let readMemory: ReadMemory
    /// The XML reader (`xmlReadMemory`), for feeds; `readMemory` is the HTML one.
    let readXML: ReadMemory
    let freeDocument: FreeDocument
    let rootElement: RootElement
    let property: Property
    let content: Content
    let free: Free
    let lastError: LastError
    let resetLastError: ResetLastError

    private static let library = SharedObject(
        names: ["libxml2.so.2", "libxml2.so", "libxml2.2.dylib", "/opt/homebrew/opt/libxml2/lib/libxml2.dylib"],
        purpose: "reading HTML")
    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: LibXML2?

    static func shared() throws -> LibXML2 {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let functions = LibXML2(
            readMemory: try library.function("htmlReadMemory", as: ReadMemory.self),
            readXML: try library.function("xmlReadMemory", as: ReadMemory.self),
            freeDocument: try library.function("xmlFreeDoc", as: FreeDocument.self),
            rootElement: try library.function("xmlDocGetRootElement", as: RootElement.self),
            property: try library.function("xmlGetProp", as: Property.self),
            content: try library.function("xmlNodeGetContent", as: Content.self),
            free: try freeFunction(),
            lastError: try library.function("xmlGetLastError", as: LastError.self),
            resetLastError: try library.function("xmlResetLastError", as: ResetLastError.self))
        loaded = functions
        return functions
    }

    /// libxml2's `xmlFree`: behind `__xmlFree()` when the library keeps per-thread allocators,
    /// else a global variable.
    private static func freeFunction() throws -> Free {
        if let location = try? library.function("__xmlFree", as: FreeFunctionLocation.self), let free = location()?.pointee {
            return free
        }
        let variable = try library.address(of: "xmlFree").assumingMemoryBound(to: Free?.self)
        guard let free = variable.pointee else { throw IntentError("reading HTML: libxml2 has no free function") }
        return free
    }
}
