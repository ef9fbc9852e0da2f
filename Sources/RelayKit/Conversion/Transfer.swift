import Foundation

/// One form in which a transferable thing can be handed over (App Intents' `TransferRepresentation`).
public struct TransferRepresentation: Sendable {
    public enum Export: Sendable {
        /// Bytes of the content type: the thing's own codable form, a PDF sheet, a PNG card.
        case data(@Sendable () async throws -> Data)
        /// Another value standing in for the thing, such as its name as text.
        case proxy(@Sendable () async throws -> Value)
    }

    /// The content type the representation produces.
    public let contentType: ContentType
    public let export: Export

    /// Bytes of `contentType`.
    public static func data(_ contentType: ContentType, _ export: @escaping @Sendable () async throws -> Data) -> TransferRepresentation {
        TransferRepresentation(contentType: contentType, export: .data(export))
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

/// How a transferable thing reaches a parameter that accepts some content types.
public enum TransferSelection: Sendable {
    /// Representation `index` is accepted as it is.
    case representation(Int)
    /// Representation `index`, converted through `chain`.
    case converted(Int, [Converter])

    /// Docs/Language.md, "Conversions between formats": the first representation, in the thing's order, whose type conforms to one the
    /// parameter accepts; if none does, the representation with the cheapest converter chain to an
    /// accepted type; if there is none, an error naming what was offered and what was accepted.
    public static func select(
        from representations: [TransferRepresentation], accepting accepted: [ContentType], graph: ConversionGraph
    ) throws(TransferError) -> TransferSelection {
        if let index = representations.firstIndex(where: { representation in
            accepted.contains { representation.contentType.conforms(to: $0) }
        }) {
            return .representation(index)
        }
        var best: (index: Int, chain: [Converter], cost: Int)?
        for (index, representation) in representations.enumerated() {
            for type in accepted {
                guard let chain = graph.chain(from: [.file(representation.contentType)], to: .file(type)) else { continue }
                let cost = chain.reduce(0) { $0 + ($1.isLossy ? 100 : 1) }
                if cost < (best?.cost ?? .max) { best = (index, chain, cost) }
            }
        }
        guard let best else {
            throw TransferError(offered: representations.map(\.contentType), accepted: accepted)
        }
        return .converted(best.index, best.chain)
    }
}

/// Nothing a thing offers can become what a parameter accepts.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    public let offered: [ContentType]
    public let accepted: [ContentType]

    public var description: String {
        "offered \(offered.map(\.identifier).joined(separator: ", ")); accepted \(accepted.map(\.identifier).joined(separator: ", ")), and no conversion leads from one to the other"
    }
}
