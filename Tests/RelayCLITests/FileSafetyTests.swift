import Foundation
import Testing

/// What a run writes never lands on the wrong file: lists of outputs going to one path, runs at
/// the same time (Docs/Reliability.md).
@Suite("File safety across a run and between runs")
struct FileSafetyTests {
    /// A 60×40 PNG of four coloured quadrants.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg==") ?? Data()

    /// A fresh folder with its own HOME, `files`, and the workflow `w.yaml` made of `steps`.
    private func sandbox(_ files: [String: Data], steps: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-safety-\(UUID().uuidString)")
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func relay(_ arguments: [String], in folder: URL) async throws -> RelayProcess.Result {
        try await RelayProcess.running(arguments, in: folder, environment: ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""])
    }

    private func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("images sent to a path with no extension that does not exist go into a folder of that name, one file each", arguments: [
        ("- convert-image: { to: jpeg, save-to: out/jpegs2 }", "out/jpegs2", ["a.jpg", "b.jpg", "c.jpg"]),
        ("- resize-image: { width: 10, to: out/thumbs }", "out/thumbs", ["a.png", "b.png", "c.png"]),
    ])
    func listToFolder(step: String, folder: String, expected: [String]) async throws {
        let root = try sandbox(
            ["in/a.png": Self.png, "in/b.png": Self.png, "in/c.png": Self.png],
            steps: "- find-files: { in: in, sort: name }\n\(step)")
        let run = try await relay(["run", "w.yaml", "--allow-write=\(root.path)"], in: root)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(names(in: root.appendingPathComponent(folder)) == expected)
    }

    @Test("a list of images sent to one file path is an error at the second, which names both files; undo restores")
    func listToOneFile() async throws {
        let root = try sandbox(
            ["in/a.png": Self.png, "in/b.png": Self.png],
            steps: "- find-files: { in: in, sort: name }\n- rotate-image: { degrees: 90, to: out/one.png }")
        let run = try await relay(["run", "w.yaml", "--allow-write=\(root.path)"], in: root)
        #expect(run.status == 1)
        #expect(run.standardError.contains("out/one.png' was already written in this run from '"), "\(run.standardError)")
        #expect(run.standardError.contains("in/a.png'; writing '") && run.standardError.contains("in/b.png' there would replace it"))
        #expect(try await relay(["undo"], in: root).status == 0)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/one.png").path))
    }

    @Test("editing a file in place twice in a run is not a conflict")
    func inPlaceTwice() async throws {
        let root = try sandbox(["a.png": Self.png], steps: "- read-file: a.png\n- rotate-image: 90\n- rotate-image: 90\n- flip-image: vertical")
        let run = try await relay(["run", "w.yaml", "--allow-write=\(root.path)"], in: root)
        #expect(run.status == 0, "\(run.standardError)")
    }

    @Test("two runs rotating the same 200 images at once: every image is rotated twice, none once")
    func concurrentRuns() async throws {
        var files: [String: Data] = [:]
        for index in 0..<200 { files["images/\(index).png"] = Self.png }
        let root = try sandbox(files, steps: "- find-files: images\n- rotate-image: 90")
        let runs = try (0..<2).map { _ in
            let process = try RelayProcess.start(running: "w.yaml", ["--allow-write=\(root.path)"], in: root)
            return process
        }
        for run in runs {
            await RelayProcess.waitForExit(run)
            #expect(run.terminationStatus == 0)
        }
        // The PNG header's width (bytes 16…19): 60 after two quarter turns, 40 after one.
        let once = (0..<200).filter { index in
            let data = FileManager.default.contents(atPath: root.appendingPathComponent("images/\(index).png").path) ?? Data()
            return data.count < 24 || data[16..<20].reduce(0) { $0 << 8 | Int($1) } != 60
        }
        #expect(once.isEmpty, "rotated once (or broken): \(once)")
    }
}
