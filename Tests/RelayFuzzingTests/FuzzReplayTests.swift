import Foundation
import RelayFuzzing
import Testing

/// Every fuzz target's seeds and the crashers fuzzing found (`Tests/Fuzz/TARGET/seeds` and
/// `…/crashers`) go through the target's check on every test run: a crasher fixed stays fixed.
@Suite("Fuzz targets replayed over their seeds and crashers")
struct FuzzReplayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The inputs kept for `target`, as paths.
    static func inputs(of target: FuzzTarget) -> [String] {
        ["seeds", "crashers"].flatMap { kind -> [String] in
            let place = folder.appendingPathComponent(target.rawValue).appendingPathComponent(kind)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { place.appendingPathComponent($0).path }
        }
    }

    @Test("every target has a seed corpus", arguments: FuzzTarget.allCases)
    func seeded(target: FuzzTarget) {
        #expect(Self.inputs(of: target).count >= 5, "Tests/Fuzz/\(target.rawValue)/seeds has fewer than 5 inputs")
    }

    @Test("Scripts/fuzz, which CI runs over its targets, knows every target")
    func scriptKnowsTargets() throws {
        let script = try String(contentsOf: Self.folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/fuzz"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("targets=(") })
        let listed = line.dropFirst("targets=(".count).prefix { $0 != ")" }.split(separator: " ").map(String.init)
        #expect(listed == FuzzTarget.allCases.map(\.rawValue))
    }

    @Test("every seed and kept crasher passes its target's check", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) async throws {
        for path in Self.inputs(of: target) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let finding = await target.check(bytes)
            #expect(finding == nil, "\(path): \(finding ?? "")")
        }
    }
}
