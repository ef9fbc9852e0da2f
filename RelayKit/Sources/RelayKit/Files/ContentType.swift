import Foundation

/// A uniform type identifier (`public.png`, `com.adobe.pdf`), with the types it conforms to,
/// its file extensions and MIME types (Docs/Language.md, "Conversions between formats").
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, e.g. `public.png`.
    public let identifier: String

    /// The type for `identifier`, known to the registry or not (an unknown type conforms only to itself).
    public init(_ identifier: String) { self.identifier = identifier }

    public var description: String { identifier }

    /// Whether this type is `other` or conforms to it through the tree (`public.png` → `public.image`
    /// → `public.data` → `public.item`).
    public func conforms(to other: ContentType) -> Bool {
        if self == other { return true }
        return ContentTypeRegistry.entry(for: self)?.parents.contains { $0.conforms(to: other) } ?? false
    }

    /// The types this one directly conforms to.
    public var parents: [ContentType] { ContentTypeRegistry.entry(for: self)?.parents ?? [] }

    /// The usual file extension, without the dot.
    public var preferredExtension: String? { ContentTypeRegistry.entry(for: self)?.extensions.first }

    /// Whether a file of this type holds a whole list (JSON, CSV): a list converted to it, or saved
    /// as it, is one file of the list, not a file of each item.
    public var holdsLists: Bool { conforms(to: .json) || conforms(to: .csv) }

    /// The usual MIME type.
    public var mimeType: String? { ContentTypeRegistry.entry(for: self)?.mimeTypes.first }

    /// The type of files with `fileExtension` (any case, without the dot), if known.
    public init?(fileExtension: String) {
        guard let type = ContentTypeRegistry.type(forExtension: fileExtension.lowercased()) else { return nil }
        self = type
    }

    /// The type for a MIME type such as `image/png` (parameters after `;` ignored), if known.
    public init?(mimeType: String) {
        let bare = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let type = ContentTypeRegistry.type(forMIMEType: bare) else { return nil }
        self = type
    }

    /// A type as workflows name it: a short name (`pdf`, `png`, `text`, `image` …), an extension,
    /// a MIME type, or a full identifier.
    public init?(name: String) {
        let lowered = name.lowercased()
        if let type = ContentTypeRegistry.byShortName[lowered] {
            self = type
        } else if ContentTypeRegistry.entry(for: ContentType(name)) != nil {
            self = ContentType(name)
        } else if let type = ContentType(mimeType: lowered) ?? ContentType(fileExtension: lowered) {
            self = type
        } else {
            return nil
        }
    }

    public static let item = ContentType("public.item")
    public static let data = ContentType("public.data")
    public static let folder = ContentType("public.folder")
    public static let text = ContentType("public.text")
    public static let plainText = ContentType("public.plain-text")
    public static let markdown = ContentType("net.daringfireball.markdown")
    public static let html = ContentType("public.html")
    public static let json = ContentType("public.json")
    public static let csv = ContentType("public.comma-separated-values-text")
    public static let rtf = ContentType("public.rtf")
    /// Rich text as a value (`TransferRepresentation.richText`), which Relay renders into PDF, RTF
    /// or HTML when one of those is wanted. No file has it, so it is not among the known types.
    public static let richText = ContentType("relay.rich-text")
    public static let pdf = ContentType("com.adobe.pdf")
    public static let image = ContentType("public.image")
    public static let png = ContentType("public.png")
    public static let jpeg = ContentType("public.jpeg")
    public static let gif = ContentType("com.compuserve.gif")
    public static let svg = ContentType("public.svg-image")
    public static let webp = ContentType("org.webmproject.webp")
    public static let zip = ContentType("public.zip-archive")
}

/// A content type a package declares: its identifier, the types it conforms to, its extensions.
public struct ContentTypeDeclaration: Sendable {
    public let type: ContentType
    public let conformsTo: [ContentType]
    public let extensions: [String]
    public let mimeTypes: [String]

    public init(_ identifier: String, conformsTo: [ContentType], extensions: [String] = [], mimeTypes: [String] = []) {
        self.type = ContentType(identifier)
        self.conformsTo = conformsTo
        self.extensions = extensions
        self.mimeTypes = mimeTypes
    }
}

/// The known content types: the built-in tree (dictionaries built once) and the types the
/// registered packages declare (`Declarations.current`).
enum ContentTypeRegistry {
    private static func declaredType(where matches: (Entry) -> Bool) -> ContentType? {
        Declarations.current.contentTypes.values.first(where: matches)?.type
    }

    static func isBuiltIn(_ type: ContentType) -> Bool { byIdentifier[type.identifier] != nil }

    static func type(forExtension fileExtension: String) -> ContentType? {
        byExtension[fileExtension] ?? declaredType { $0.extensions.contains(fileExtension) }
    }

    static func type(forMIMEType mimeType: String) -> ContentType? {
        byMIMEType[mimeType] ?? declaredType { $0.mimeTypes.contains(mimeType) }
    }

    struct Entry: Sendable {
        let type: ContentType
        let parents: [ContentType]
        let extensions: [String]
        let mimeTypes: [String]
        let shortNames: [String]
    }

    static let entries: [Entry] = [
        Entry(type: .item, parents: [], extensions: [], mimeTypes: [], shortNames: ["item", "any"]),
        Entry(type: .data, parents: [.item], extensions: [], mimeTypes: ["application/octet-stream"], shortNames: ["data"]),
        Entry(type: .folder, parents: [.item], extensions: [], mimeTypes: [], shortNames: ["folder"]),
        Entry(type: .text, parents: [.data], extensions: [], mimeTypes: [], shortNames: ["text"]),
        Entry(type: .plainText, parents: [.text], extensions: ["txt", "text"], mimeTypes: ["text/plain"], shortNames: ["plain-text", "txt"]),
        Entry(type: .markdown, parents: [.plainText], extensions: ["md", "markdown", "mdown"], mimeTypes: ["text/markdown"], shortNames: ["markdown", "md"]),
        Entry(type: .html, parents: [.text], extensions: ["html", "htm"], mimeTypes: ["text/html"], shortNames: ["html"]),
        Entry(type: .json, parents: [.text], extensions: ["json"], mimeTypes: ["application/json"], shortNames: ["json"]),
        Entry(type: .csv, parents: [.text], extensions: ["csv"], mimeTypes: ["text/csv"], shortNames: ["csv"]),
        Entry(type: .rtf, parents: [.text], extensions: ["rtf"], mimeTypes: ["application/rtf", "text/rtf"], shortNames: ["rtf"]),
        Entry(type: .pdf, parents: [.data], extensions: ["pdf"], mimeTypes: ["application/pdf"], shortNames: ["pdf"]),
        Entry(type: .image, parents: [.data], extensions: [], mimeTypes: [], shortNames: ["image"]),
        Entry(type: .png, parents: [.image], extensions: ["png"], mimeTypes: ["image/png"], shortNames: ["png"]),
        Entry(type: .jpeg, parents: [.image], extensions: ["jpg", "jpeg", "jpe"], mimeTypes: ["image/jpeg"], shortNames: ["jpeg", "jpg"]),
        Entry(type: .gif, parents: [.image], extensions: ["gif"], mimeTypes: ["image/gif"], shortNames: ["gif"]),
        Entry(type: .svg, parents: [.image], extensions: ["svg"], mimeTypes: ["image/svg+xml"], shortNames: ["svg"]),
        Entry(type: .webp, parents: [.image], extensions: ["webp"], mimeTypes: ["image/webp"], shortNames: ["webp"]),
        Entry(type: .zip, parents: [.data], extensions: ["zip"], mimeTypes: ["application/zip"], shortNames: ["zip"]),
    ]

    private static let byIdentifier: [String: Entry] = Dictionary(entries.map { ($0.type.identifier, $0) }) { first, _ in first }
    static let byExtension: [String: ContentType] = index { $0.extensions }
    static let byMIMEType: [String: ContentType] = index { $0.mimeTypes }
    static let byShortName: [String: ContentType] = index { $0.shortNames }

    static func entry(for type: ContentType) -> Entry? { byIdentifier[type.identifier] ?? Declarations.current.contentTypes[type.identifier] }

    private static func index(_ keys: (Entry) -> [String]) -> [String: ContentType] {
        var result: [String: ContentType] = [:]
        for entry in entries {
            for key in keys(entry) where result[key] == nil { result[key] = entry.type }
        }
        return result
    }
}
