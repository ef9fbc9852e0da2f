import Foundation
import Testing

@testable import RelayLanguage

/// Every file in `Malformed/` starts with `# expect: LINE:COLUMN: TEXT`: loading it must give an
/// error at that place whose message contains TEXT.
@Suite("Malformed workflow corpus")
struct MalformedCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test("the corpus has at least 40 files")
    func size() {
        #expect(Self.files.count >= 40)
    }

    @Test("each file gives its expected, located error", arguments: files)
    func file(name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let firstLine = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let expectation = try #require(firstLine.components(separatedBy: "# expect: ").last, "no '# expect:' line")
        let parts = expectation.split(separator: ":", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
        try #require(parts.count == 3)
        let found = diagnostics(text, path: name)
        let match = found.first {
            $0.severity == .error && $0.range?.start.line == Int(parts[0]) && $0.range?.start.column == Int(parts[1])
                && ($0.message + $0.notes.joined()).contains(parts[2])
        }
        #expect(match != nil, "expected \(expectation); got \(found.map(\.summary))")
    }
}
