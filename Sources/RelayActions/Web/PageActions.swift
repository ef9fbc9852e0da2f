import Foundation
import RelayKit

/// A web page fetched for what it points to: its bytes, the URL it came from (after redirects),
/// and whether the server said it is a page or a feed.
struct FetchedPage {
    let data: Data
    let url: URL
    let contentType: String

    /// Fetches `url` (http or https) through the gate, within the bound of a response held in memory.
    static func fetch(_ url: URL, accept: String, action: String, context: any IntentContext) async throws -> FetchedPage {
        let spill = try context.scratchFolder.path(forNewFile: ".page-\(UUID().uuidString).part")
        defer { unlink(spill) }
        let response = try await get(url, accept: accept, action: action, spillingTo: spill, context: context)
        guard case .bytes(let data) = response.body else {
            throw IntentError("the response from \(url.absoluteString) is over \(ByteCount.text(Int64(Limits.responseInMemory))), more than \(action) reads")
        }
        let type = response.contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return FetchedPage(data: data, url: response.url ?? url, contentType: type)
    }

    /// The response to a GET of `url` (http or https), through the gate; a status that is not
    /// 2xx is an error. A long body is in `spill`.
    static func get(_ url: URL, accept: String, action: String, spillingTo spill: String, context: any IntentContext) async throws -> HTTPClient.Response {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            let hint = url.isFileURL ? "; for a file on this machine, give the file itself (its path, or read-file)" : ""
            throw IntentError("\(action) takes an http or https URL, not '\(url.absoluteString)'\(hint)")
        }
        let response = try await HTTPClient.send(HTTPClient.Request(url: url, method: "GET", headers: ["Accept: \(accept)"], body: nil), spillingTo: spill) {
            try await context.authorize($0)
        }
        guard (200..<300).contains(response.status) else { throw IntentError("GET \(url.absoluteString) answered \(HTTPStatus.describe(response.status))") }
        return response
    }

    /// Whether the server sent a feed rather than a page: by its type, or an XML type and an RSS,
    /// RDF or Atom root element.
    var isFeed: Bool {
        if PageLinks.feedTypes.contains(contentType) { return true }
        guard contentType.hasSuffix("xml") else { return false }
        let start = String(decoding: data.prefix(4096), as: UTF8.self)
        return ["<rss", "<feed", "<rdf:RDF"].contains { start.contains($0) }
    }
}

/// `get-rss-feeds`: the feeds a web page names (Shortcuts' Get RSS Feeds from Page).
struct GetRSSFeeds: Intent {
    static let name = "get-rss-feeds"
    static let title = "Get RSS Feeds"
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.rss.extract", title: "Get RSS Feeds from Page", parameters: ["WFURLs": "page"]),
    ]
    static let summary =
        "Fetches the web page at the input URL and outputs the URLs of the feeds it names (<link rel=\"alternate\"> of RSS, Atom or JSON Feed); a URL that is itself a feed is output as it is."
    static let examples = [
        IntentExample("- url: https://example.com/blog/\n- get-rss-feeds\n- get-item: 1\n- get-rss-items: 5"),
    ]
    static let output = OutputType.list(of: .url)

    @Parameter(primary: true, input: true, summary: "The page's URL.", access: .net) var page: URL

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let fetched = try await FetchedPage.fetch(
            page, accept: "text/html, application/xhtml+xml, application/rss+xml, application/atom+xml", action: "get-rss-feeds", context: context)
        if fetched.isFeed { return .value(.list([.url(fetched.url)])) }
        return .value(.list(try PageLinks.links(in: fetched.data, page: fetched.url).feeds.map(Value.url)))
    }
}

/// `get-images`: the images in the input — image files as they are, the images an HTML page or
/// HTML file shows, the images of rich text — downloaded as files (Shortcuts' Get Images from Input).
struct GetImages: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.detect.images", title: "Get Images from Input", parameters: ["WFInput": "value"]),
    ]
    static let summary =
        "Outputs the images in the input as files: image files as they are; the images (<img>) of a web page at a URL, of an HTML file or text, of rich text, each fetched into the scratch folder (each host asked for, as any request's is). An image that cannot be had (gone, not an image) is left out with a warning, as is one written relative to a page that HTML without its URL cannot place."
    static let examples = [
        IntentExample("- url: https://example.com/gallery.html\n- get-images\n- save-file: { to: ~/Pictures/gallery/ }"),
    ]
    static let output = OutputType.list(of: .file)
    /// The images of a page come from hosts the page names, asked for as they are fetched.
    static let capabilities: [Capability] = [.net]

    @Parameter(primary: true, input: true, summary: "A URL, HTML (text or a file), rich text, image files, or a list of those.", access: .read)
    var value: Value
    @Parameter(summary: "At most this many images, 1 to 1000.", check: { (1...1000).contains($0) ? nil : "from 1 to 1000, not \($0)" })
    var limit: Int = 100

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var images: [Value] = []
        var sources: [URL] = []
        var relative = 0
        func read(_ html: Data) throws {
            let links = try PageLinks.links(in: html, page: nil, limit: limit)
            sources += links.images
            relative += links.relativeImages
        }
        for item in value.asList {
            try Task.checkCancellation()
            switch item {
            case .file(let file):
                let type = file.contentType
                if type.conforms(to: .image) {
                    images.append(item)
                } else if type.conforms(to: .html) {
                    try read(
                        FileBytes.read(file, limit: Limits.responseInMemory) {
                            "'\(file.name)' is over \(ByteCount.text(Int64(Limits.responseInMemory))), more than get-images reads"
                        })
                } else {
                    throw IntentError("'\(file.name)' \(Self.describe(type)): \(Self.reads)")
                }
            case .url(let url):
                sources += try await pageImages(url, context: context, into: &images)
            case .text(let text):
                if let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https" || scheme == "file"
                {
                    sources += try await pageImages(url, context: context, into: &images)
                } else {
                    try read(Data(text.utf8))
                }
            case .richText(let richText):
                let written = richText.imageSources
                let urls = written.compactMap { URL(string: $0) }.filter { ["http", "https", "data"].contains($0.scheme?.lowercased() ?? "") }
                sources += urls
                relative += written.count - urls.count
            case .nothing:
                continue
            default:
                throw IntentError("get-images was given \(item.type.withArticle): \(Self.reads)")
            }
        }
        // An image that cannot be had (gone, not an image) is left out, as a browser leaves out a
        // broken image: the others are still the page's. A host the gate refuses is not: that
        // ends the step.
        var missed: [String] = []
        for source in sources where images.count < limit {
            try Task.checkCancellation()
            do {
                images.append(try await download(source, context: context))
            } catch let error as IntentError {
                missed.append(error.message)
            }
        }
        if let first = missed.first {
            await context.warn("\(missed.count) image\(missed.count == 1 ? "" : "s") left out (\(first)\(missed.count > 1 ? ", …" : ""))")
        }
        if relative > 0 {
            await context.warn(
                "\(relative) image\(relative == 1 ? "" : "s") written relative to a page (src=\"photo.png\") left out: nothing says which page; give get-images the page's URL")
        }
        return .value(.list(Array(images.prefix(limit))))
    }

    /// What get-images reads, for messages.
    static let reads = "get-images reads image files, HTML (a file or text), rich text and web pages by their URL"

    /// What a file of `type` is, for a message, with what to do where there is something.
    static func describe(_ type: ContentType) -> String {
        if type.conforms(to: .folder) { return "is a folder (find-files lists the images in it)" }
        if type.conforms(to: .markdown) { return "is Markdown (rich-text-from-markdown reads it into rich text, whose images get-images takes)" }
        return "is \(type.identifier), not an image or HTML"
    }

    /// The images of the page at `url`: a URL that is an image is that image (added to `images`);
    /// a page, the images it shows.
    private func pageImages(_ url: URL, context: any IntentContext, into images: inout [Value]) async throws -> [URL] {
        let fetched = try await FetchedPage.fetch(url, accept: "text/html, application/xhtml+xml, image/*", action: "get-images", context: context)
        if fetched.contentType.hasPrefix("image/") {
            images.append(try keep(fetched.data, contentType: fetched.contentType, from: fetched.url, context: context))
            return []
        }
        return try PageLinks.links(in: fetched.data, page: fetched.url, limit: limit).images
    }

    /// The image at `source` as a file in the scratch folder: fetched through the gate, or read
    /// from a `data:` URL.
    private func download(_ source: URL, context: any IntentContext) async throws -> Value {
        if source.scheme?.lowercased() == "data" {
            guard let (data, type) = DataURL.decode(source.absoluteString) else {
                throw IntentError("an image's data: URL cannot be read (\(Excerpt.start(of: source.absoluteString, limit: 60)))")
            }
            return try keep(data, contentType: type, from: URL(fileURLWithPath: "/image"), context: context)
        }
        // An image of any size: a long one stays in the file it arrived in.
        let spill = try context.scratchFolder.path(forNewFile: ".image-\(UUID().uuidString).part")
        defer { unlink(spill) }
        let response = try await FetchedPage.get(source, accept: "image/*", action: "get-images", spillingTo: spill, context: context)
        return try keep(response, from: response.url ?? source, context: context)
    }

    private func keep(_ data: Data, contentType: String, from url: URL, context: any IntentContext) throws -> Value {
        try keep(HTTPClient.Response(status: 200, body: .bytes(data), contentType: contentType.isEmpty ? nil : contentType), from: url, context: context)
    }

    private func keep(_ response: HTTPClient.Response, from url: URL, context: any IntentContext) throws -> Value {
        let value = try ResponseValue.make(response, url: url, scratch: context.scratchFolder)
        guard case .file(let file) = value, file.contentType.conforms(to: .image), Self.holdsImage(file) else {
            throw IntentError("\(url.scheme == "file" ? "a data: URL" : url.absoluteString) is not an image")
        }
        return value
    }

    /// Whether `file`'s bytes are an image: a format with a signature has it; one without (SVG,
    /// WebP) is at least not empty.
    static func holdsImage(_ file: FileReference) -> Bool {
        // Opened as every read of a file value is: a pipe or a device is not read.
        guard let descriptor = try? file.openForReading() else { return false }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let head = try? handle.read(upToCount: ContentSniffing.prefixLength), !head.isEmpty else { return false }
        if let sniffed = ContentSniffing.type(ofContent: head) { return sniffed.conforms(to: .image) }
        return ![ContentType.png, .jpeg, .gif].contains { file.contentType.conforms(to: $0) }
    }
}

/// A `data:` URL's bytes and media type (RFC 2397): `data:image/png;base64,…` or percent-encoded.
enum DataURL {
    static func decode(_ text: String) -> (Data, String)? {
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let type = parts.first.flatMap { $0.contains("/") ? String($0) : nil } ?? "text/plain"
        let payload = String(text[text.index(after: comma)...])
        if parts.contains("base64") {
            let cleaned = (payload.removingPercentEncoding ?? payload).filter { !$0.isWhitespace }
            return Data(base64Encoded: cleaned, options: .ignoreUnknownCharacters).map { ($0, type) }
        }
        return payload.removingPercentEncoding.map { (Data($0.utf8), type) }
    }
}

extension RichText {
    /// Where the rich text's images are, in reading order.
    var imageSources: [String] {
        var sources: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .image(let source, _, _): sources.append(source)
                case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, _, let inner): visit(inner)
                default: break
                }
            }
        }
        func visit(_ blocks: [Block]) {
            for block in blocks {
                switch block {
                case .heading(_, let inlines), .paragraph(let inlines): visit(inlines)
                case .list(_, _, let items, _): items.forEach { visit($0.blocks) }
                case .quote(let inner): visit(inner)
                case .table(let table): table.rows.forEach { $0.forEach(visit) }
                case .code, .rule, .html: break
                }
            }
        }
        visit(blocks)
        return sources
    }
}
