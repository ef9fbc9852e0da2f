import Foundation
import Testing

@testable import RelayKit

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

    @Test("the first representation, in fidelity order, that the parameter accepts")
    func firstAccepted() throws {
        ContentType.declare([ContentTypeDeclaration("com.example.trailkit.trail", conformsTo: [.data])])
        let trail = Trail(name: "Ridge Loop")
        let graph = ConversionGraph()
        guard case .representation(let pdf) = try TransferSelection.select(from: trail.transferRepresentations, accepting: [.pdf, .png], graph: graph) else {
            Issue.record("not a direct representation")
            return
        }
        #expect(pdf == 1)
        guard case .representation(let image) = try TransferSelection.select(from: trail.transferRepresentations, accepting: [.image], graph: graph) else {
            Issue.record("not a direct representation")
            return
        }
        #expect(image == 3)
        guard case .representation(let text) = try TransferSelection.select(from: trail.transferRepresentations, accepting: [.text], graph: graph) else {
            Issue.record("not a direct representation")
            return
        }
        #expect(text == 2, "RTF conforms to public.text and comes before plain text")
        guard case .representation(let own) = try TransferSelection.select(from: trail.transferRepresentations, accepting: [.data], graph: graph) else {
            Issue.record("not a direct representation")
            return
        }
        #expect(own == 0, "the private codable form conforms only to itself, so it is chosen only when data is accepted")
    }

    @Test("when none is accepted, the cheapest conversion; when none leads there, an error naming both sides")
    func conversion() throws {
        let rtfOnly = [TransferRepresentation.data(.rtf) { Data() }, .proxy(.plainText) { .text("x") }]
        var graph = ConversionGraph()
        graph.add([
            converter(.file(.plainText), .file(.html), lossy: true),
            converter(.file(.rtf), .value(.richText)), converter(.value(.richText), .file(.html)),
        ])
        guard case .converted(let index, let chain) = try TransferSelection.select(from: rtfOnly, accepting: [.html], graph: graph) else {
            Issue.record("not converted")
            return
        }
        #expect(index == 0 && chain.count == 2, "the lossless RTF chain beats the lossy plain-text one")
        do {
            _ = try TransferSelection.select(from: rtfOnly, accepting: [.jpeg], graph: graph)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "offered public.rtf, public.plain-text; accepted public.jpeg, and no conversion leads from one to the other")
        }
    }
}
