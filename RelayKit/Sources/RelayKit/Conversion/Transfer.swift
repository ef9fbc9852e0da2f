import Foundation

/// One form in which a transferable thing can be handed over (App Intents' `TransferRepresentation`).
public struct TransferRepresentation: Sendable {
    public enum Export: Sendable {
        /// Bytes of the content type: the thing's own codable form, a PDF sheet, a PNG card.
        case data(@Sendable () async throws -> Data)
        /// Another value standing in for the thing, such as its name as text.
        case proxy(@Sendable () async throws -> Value)
        /// A file that already is the thing in the content type (App Intents' `FileRepresentation`):
        /// handed over as it is, not copied.
        case file(@Sendable () async throws -> FileReference)
    }

    /// The content type the representation produces.
    public let contentType: ContentType
    public let export: Export
    /// The name a file made of it gets (without extension; the content type's is added), in the
    /// manner of App Intents' `suggestedFileName`; else the entity's title.
    public var suggestedFileName: String?

    public init(contentType: ContentType, export: Export, suggestedFileName: String? = nil) {
        self.contentType = contentType
        self.export = export
        self.suggestedFileName = suggestedFileName
    }

    /// The same representation, whose file is named `name` (`.suggestedFileName("Ridge Loop sheet")`).
    public func suggestedFileName(_ name: String) -> TransferRepresentation {
        var named = self
        named.suggestedFileName = name
        return named
    }

    /// Bytes of `contentType`.
    public static func data(_ contentType: ContentType, _ export: @escaping @Sendable () async throws -> Data) -> TransferRepresentation {
        TransferRepresentation(contentType: contentType, export: .data(export))
    }

    /// A file of `contentType` that already exists (a cover image the package keeps).
    public static func file(_ contentType: ContentType, _ export: @escaping @Sendable () async throws -> FileReference) -> TransferRepresentation {
        TransferRepresentation(contentType: contentType, export: .file(export))
    }

    /// Rich text the thing is (a sheet, a summary): Relay renders it with its own libraries —
    /// pango and cairo for PDF, its RTF and HTML writers — whichever of those is wanted, so a
    /// package writes no bytes of a format by hand.
    public static func richText(_ export: @escaping @Sendable () async throws -> RichText) -> TransferRepresentation {
        TransferRepresentation(contentType: .richText, export: .proxy { .richText(try await export()) })
    }

    /// A stand-in value; `contentType` says what it is (`public.plain-text` for text).
    public static func proxy(_ contentType: ContentType, _ export: @escaping @Sendable () async throws -> Value) -> TransferRepresentation {
        TransferRepresentation(contentType: contentType, export: .proxy(export))
    }
}

/// Something that can be handed to parameters that take files: its representations are listed
/// from highest fidelity to lowest (Docs/Language.md, "Conversions between formats").
public protocol Transferable: Sendable {
    var transferRepresentations: [TransferRepresentation] { get }
}
