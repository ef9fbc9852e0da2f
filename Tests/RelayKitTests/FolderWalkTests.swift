import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@testable import RelayKit
@testable import RelayEngine

/// The one folder walk (Docs/Reliability.md, "Your files"): bad entries are passed over and
/// counted, never listed twice, never a crash; a file's status is read only when asked.
@Suite("The folder walk")
struct FolderWalkTests {
    private func tree() throws -> URL {
        let root = URL(fileURLWithPath: ResolvedPath.resolve(FileManager.default.temporaryDirectory.path))
            .appendingPathComponent("relay-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/deep"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("b"), withIntermediateDirectories: true)
        for name in ["one.txt", "a/two.txt", "a/deep/three.txt", "b/four.txt", ".hidden"] {
            #expect(FileManager.default.createFile(atPath: root.appendingPathComponent(name).path, contents: Data(name.utf8)))
        }
        return root
    }

    private func walked(_ root: URL, links: SymbolicLinks = .skip) -> (paths: [String], report: WalkReport) {
        var walk = FolderWalk(root.path, links: links)
        var paths: [String] = []
        while var entry = walk.next() {
            if walk.scan(&entry) != nil { paths.append(entry.relativePath) }
        }
        return (paths, walk.report)
    }

    @Test("in path order, hidden entries left out; a name is had without reading the file's status")
    func order() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let (paths, report) = walked(root)
        #expect(paths == ["a/deep/three.txt", "a/two.txt", "b/four.txt", "one.txt"])
        #expect(report.folders == 4 && report.files == 4 && report.skipped == 0)
        var walk = FolderWalk(root.path)
        let next = walk.next()
        let first = try #require(next)
        #expect(first.pathProperty("stem") == .text("three") && first.pathProperty("extension") == .text("txt"))
        #expect(first.pathProperty("size") == nil)
    }

    @Test("an unreadable folder, a name that is not UTF-8, a file gone since its folder was read: passed over and counted")
    func skipped() throws {
        let root = try tree()
        defer {
            chmod(root.appendingPathComponent("b").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let bad = root.path + "/caf\u{FFFD}"
        var bytes = Array((root.path + "/caf").utf8) + [0xE9, 0]
        let made = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) }
        }
        #expect(made >= 0)
        close(made)
        #expect(chmod(root.appendingPathComponent("b").path, 0) == 0)
        let (paths, report) = walked(root)
        #expect(!paths.contains { $0.contains("caf") } && !FileManager.default.fileExists(atPath: bad))
        if getuid() != 0 {  // root reads any folder
            #expect(!paths.contains("b/four.txt"))
            #expect(report.skipped == 2)
            #expect(report.skippedSummary?.contains("cannot be read") == true || report.skippedSummary?.contains("not UTF-8") == true)
        } else {
            #expect(report.skipped == 1)
        }
        #expect(report.firstSkipped != nil)

        // Gone between the listing and the status.
        var walk = FolderWalk(root.path)
        let next = walk.next()
        var entry = try #require(next)
        try FileManager.default.removeItem(atPath: entry.path)
        let before = walk.report.skipped
        #expect(walk.scan(&entry) == nil)
        #expect(walk.report.skipped == before + 1)
    }

    @Test("a loop of links ends, each folder walked once; a hard link is the same file, listed once; a followed link keeps its own path")
    func loopsAndLinks() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a/deep/back").path, withDestinationPath: root.appendingPathComponent("a").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("alias.txt").path, withDestinationPath: "one.txt")
        #expect(link(root.appendingPathComponent("one.txt").path, root.appendingPathComponent("b/same.txt").path) == 0)
        let (paths, report) = walked(root, links: .followInside)
        // b/same.txt comes before one.txt in path order.
        #expect(paths == ["a/deep/three.txt", "a/two.txt", "alias.txt", "b/four.txt", "b/same.txt"])
        #expect(report.skipped == 1 && report.firstSkipped?.contains("reached again through a link") == true)
        #expect(walked(root).paths == ["a/deep/three.txt", "a/two.txt", "b/four.txt", "b/same.txt"])
    }

    @Test("a file named by an identifier is one a walk would list: never beyond the folder, by '..', a link, a hidden name or another extension")
    func fileByIdentifierStaysInside() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("relay-byid-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("Notes")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("outdir"), withIntermediateDirectories: true)
        for (path, text) in [("Notes/a.md", "a"), ("Notes/sub/b.md", "b"), ("Notes/.hidden.md", "h"), ("Notes/c.txt", "c"), ("secret.md", "s"), ("outdir/x.md", "x")] {
            try text.write(to: base.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("inside.md").path, withDestinationPath: folder.appendingPathComponent("a.md").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("evil.md").path, withDestinationPath: base.appendingPathComponent("secret.md").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out").path, withDestinationPath: base.appendingPathComponent("outdir").path)
        let find = { (id: String) in FolderScan.file(id, in: folder.path, extensions: ["md"])?.relativePath }
        #expect(find("a.md") == "a.md" && find("sub/b.md") == "sub/b.md" && find("inside.md") == "inside.md")
        for id in ["../secret.md", "sub/../../secret.md", "evil.md", "out/x.md", ".hidden.md", "c.txt", base.path + "/secret.md", "", "sub//b.md", "./a.md", "a.md\0"] {
            #expect(find(id) == nil, "\(id)")
        }
        // Read, a file found there is read only if what is opened is there still: a link put in
        // its place, a pipe or a file over the limit is not read.
        let read = { (name: String) in FolderScan.contents(of: folder.appendingPathComponent(name).path, inside: folder.path, limit: 100) }
        #expect(read("a.md") == Data("a".utf8) && read("inside.md") == Data("a".utf8))
        #expect(read("evil.md") == nil && read("out/x.md") == nil)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.md"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("a.md").path, withDestinationPath: base.appendingPathComponent("secret.md").path)
        #expect(read("a.md") == nil)
        #expect(mkfifo(folder.appendingPathComponent("pipe.md").path, 0o600) == 0)
        #expect(read("pipe.md") == nil)
        try String(repeating: "x", count: 101).write(to: folder.appendingPathComponent("big.md"), atomically: true, encoding: .utf8)
        #expect(read("big.md") == nil)
    }

    @Test("path parts without the cost of NSString, as NSString gives them")
    func pathParts() {
        for path in ["/a/b.txt", "/a/b.tar.gz", "/a/.bashrc", "/a/b.", "/a/..b", "/a/noext", "/a/b/", "/", "/a/x.y z", "/a/é.pdf"] {
            let ns = path as NSString
            #expect(FileReference.lastComponent(of: path) == ns.lastPathComponent, "\(path)")
            #expect(FileReference.extensionOf(ns.lastPathComponent) == (ns.lastPathComponent as NSString).pathExtension, "\(path)")
        }
        for (path, standard) in [
            ("/a/b", true), ("/a/.../b", true), ("/a/.b", true), ("/a//b", false), ("/a/./b", false), ("/a/../b", false),
            ("/a/b/", false), ("a/b", false), ("/", false), ("/a/..", false), ("/a/.", false),
        ] {
            #expect(FileReference.isStandardized(path) == standard, "\(path)")
        }
    }

    @Test("a scan stops when its task is cancelled (a step's timeout), rather than list part of the folder")
    func scanCancelled() async throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path
        try await BlockingWork.run { _ in
            for n in 0..<1100 { FileManager.default.createFile(atPath: "\(path)/many-\(n).txt", contents: nil) }
        }
        #expect(try FolderScan.files(in: path).count == 1104)
        let cancelled = Task { () throws -> [ScannedFile] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try FolderScan.files(in: path)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test("names refused while a folder is read are never given nor read, but counted; folders are still entered")
    func keepingFiles() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        var asked: [String] = []
        var walk = FolderWalk(root.path, statusEagerly: true) { name in
            asked.append(name)
            return name.hasPrefix("t")
        }
        var paths: [String] = []
        while var entry = walk.next() {
            if walk.scan(&entry) != nil { paths.append(entry.relativePath) }
        }
        #expect(paths == ["a/deep/three.txt", "a/two.txt"])
        #expect(asked.sorted() == ["four.txt", "one.txt", "three.txt", "two.txt"], "folders and hidden files are not asked about")
        #expect(walk.report.files == 4 && walk.report.folders == 4)
        #expect(try FolderScan.files(in: root.path, extensions: ["md"]).isEmpty)
    }

    @Test("a walk whose task is cancelled ends before the next folder, even when its filter refuses every name")
    func walkCancelled() async throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.path
        let cancelled = Task { () -> (Bool, Int) in
            withUnsafeCurrentTask { $0?.cancel() }
            var walk = FolderWalk(path) { _ in false }
            return (walk.next() == nil, walk.report.folders)
        }
        let (ended, folders) = await cancelled.value
        #expect(ended && folders == 1, "only the folder the walk was made with is read")
    }

    @Test("blocking work: a job waiting for another never waits for a thread")
    func jobsFeedingEachOther() async throws {
        let pair = (0..<8).map { _ in DispatchSemaphore(value: 0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for semaphore in pair {
                // The waiter starts first; the signaller must get a thread of its own.
                group.addTask { _ = try await BlockingWork.run { _ in semaphore.wait() } }
                group.addTask { _ = try await BlockingWork.run { _ in semaphore.signal() } }
            }
            try await group.waitForAll()
        }
    }
}
