import Testing

@testable import RelayKit
@testable import RelayEngine

@Suite("Converter graph (Docs/Language.md, 'Conversions between formats')")
struct ConversionGraphTests {
    private func converter(_ from: Representation, _ to: Representation, lossy: Bool = false) -> Converter {
        Converter(from: from, to: to, lossy: lossy) { value, _ in value }
    }

    @Test("the cheapest chain: fewest lossy steps first, then the shortest")
    func cheapest() throws {
        var graph = ConversionGraph()
        let lossyDirect = converter(.file(.rtf), .file(.pdf), lossy: true)
        let toRich = converter(.file(.rtf), .value(.richText))
        let toPDF = converter(.value(.richText), .file(.pdf))
        graph.add([lossyDirect, toRich, toPDF])
        let chain = try #require(graph.chain(from: [.file(.rtf)], to: .file(.pdf)))
        #expect(chain.map(\.to) == [.value(.richText), .file(.pdf)])
    }

    @Test("content types match by conformance, both ways a converter is used")
    func conformance() throws {
        var graph = ConversionGraph()
        graph.add([converter(.file(.plainText), .value(.text)), converter(.file(.image), .file(.pdf))])
        #expect(try #require(graph.chain(from: [.file(.markdown)], to: .value(.text))).count == 1)
        #expect(try #require(graph.chain(from: [.file(.png)], to: .file(.pdf))).count == 1)
        #expect(graph.chain(from: [.file(.png)], to: .file(.data))?.isEmpty == true)
        #expect(graph.chain(from: [.file(.png)], to: .file(.png))?.isEmpty == true)
        #expect(graph.chain(from: [.file(.pdf)], to: .value(.text)) == nil)
    }

    @Test("a converter from any value applies to every value type but not to files")
    func anyValue() throws {
        var graph = ConversionGraph()
        graph.add([converter(.value(.any), .value(.text), lossy: true), converter(.value(.text), .file(.pdf))])
        #expect(try #require(graph.chain(from: [.value(.number)], to: .file(.pdf))).count == 2)
        #expect(graph.chain(from: [.file(.png)], to: .file(.pdf)) == nil)
    }

    @Test("converters that lead round in a loop end the search: the way out is found, a format nothing leads to is none")
    func loops() throws {
        var graph = ConversionGraph()
        let png = Representation.file(.png), jpeg = Representation.file(.jpeg), html = Representation.file(.html)
        graph.add([converter(png, jpeg), converter(jpeg, png), converter(jpeg, .value(.text), lossy: true), converter(.value(.text), jpeg)])
        #expect(graph.chain(from: [png], to: html) == nil)
        #expect(try #require(graph.chain(from: [png], to: .value(.text))).map(\.to) == [jpeg, .value(.text)])
    }
}
