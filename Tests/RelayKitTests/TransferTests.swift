import Foundation
import Testing

@testable import RelayKit
@testable import RelayEngine

/// A trail, transferable like TrailKit's: its own codable form, a PDF sheet, RTF, a PNG card, its name.
private struct Trail: Transferable {
    let name: String
    var transferRepresentations: [TransferRepresentation] {
        [
            .data(ContentType("com.example.trailkit.trail")) { Data(#"{"name":"\#(name)"}"#.utf8) },
            .data(.pdf) { Data("%PDF-1.4".utf8) },
            .data(.rtf) { Data("{\\rtf1 x}".utf8) },
            .data(.png) { Data([0x89, 0x50]) },
            .proxy(.plainText) { .text(name) },
        ]
    }
}

@Suite("Transfer representations (Docs/Language.md, 'Conversions between formats')")
struct TransferTests {
    private func converter(_ from: Representation, _ to: Representation, lossy: Bool = false) -> Converter {
        Converter(from: from, to: to, lossy: lossy) { value, _ in value }
    }

    /// The representation `cheapest` starts from, and its chain's length.
    private func selected(_ representations: [TransferRepresentation], _ wanted: [ContentType], _ graph: ConversionGraph) -> (index: Int, steps: Int)? {
        graph.cheapest(from: representations.map { $0.offers[0] }, to: wanted.map(Representation.file)).map { ($0.index, $0.chain.count) }
    }

    @Test("the first representation, in fidelity order, that the parameter accepts")
    func firstAccepted() throws {
        var declarations = Declarations()
        declarations.declare([ContentTypeDeclaration("com.example.trailkit.trail", conformsTo: [.data])])
        try declarations.using { try firstAcceptedChecks() }
    }

    private func firstAcceptedChecks() throws {
        let representations = Trail(name: "Ridge Loop").transferRepresentations
        let graph = ConversionGraph()
        #expect(selected(representations, [.pdf, .png], graph)! == (1, 0))
        #expect(selected(representations, [.image], graph)! == (3, 0))
        #expect(selected(representations, [.text], graph)! == (2, 0), "RTF conforms to public.text and comes before plain text")
        #expect(
            selected(representations, [.data], graph)! == (0, 0),
            "the private codable form conforms only to itself, so it is chosen only when data is accepted")
        #expect(
            graph.cheapest(from: representations.flatMap(\.offers), to: [.value(.text)])! .index == 5,
            "a plain-text proxy is text itself")
    }

    @Test("when none is accepted, the cheapest conversion; when none leads there, nothing")
    func conversion() throws {
        let rtfOnly = [TransferRepresentation.data(.rtf) { Data() }, .data(.plainText) { Data("x".utf8) }]
        var graph = ConversionGraph()
        graph.add([
            converter(.file(.plainText), .file(.html), lossy: true),
            converter(.file(.rtf), .value(.richText)), converter(.value(.richText), .file(.html)),
        ])
        #expect(selected(rtfOnly, [.html], graph)! == (0, 2), "the lossless RTF chain beats the lossy plain-text one")
        #expect(selected(rtfOnly, [.jpeg], graph) == nil)
        #expect(Conversions.cost(of: graph.converters) == 102)
    }
}
