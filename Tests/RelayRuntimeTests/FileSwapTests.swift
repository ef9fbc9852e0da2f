import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// Files swapped for a FIFO between the look at them and their open (Docs/Security.md, "Attacks,
/// and what stops them"): read as the file, or refused, never read from the FIFO.
@Suite("Files swapped while they are read")
struct FileSwapTests {
    @Test("a workflow or shortcut file swapped between a file and a FIFO as fast as can be is read or refused, never opened waiting on the FIFO")
    func swappedForPipe() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-swap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let pipe = root.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        try "steps:\n  - text: hi\n".write(to: root.appendingPathComponent("real.yaml"), atomically: true, encoding: .utf8)
        try Data("bplist00 not empty".utf8).write(to: root.appendingPathComponent("real.shortcut"))
        let swaps = [("w.yaml", "real.yaml"), ("s.shortcut", "real.shortcut")].map { (root.appendingPathComponent($0.0).path, $0.1) }
        let stop = StopFlag()
        // One thread points each link at its file, then at the FIFO, as fast as it can; another
        // opens the FIFO for writing now and then, which frees a read that waits in its open
        // (it then reads nothing: what a read of the FIFO gives).
        let swapper = Thread {
            var toPipe = false
            while !stop.isRaised {
                for (link, file) in swaps {
                    unlink(link + ".next")
                    symlink(toPipe ? "pipe" : file, link + ".next")
                    rename(link + ".next", link)
                }
                toPipe.toggle()
            }
        }
        let rescuer = Thread {
            while !stop.isRaised {
                let writer = open(pipe, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
                usleep(20_000)
            }
        }
        swapper.start()
        rescuer.start()
        defer { stop.raise() }
        let (texts, shortcuts) = try await BlockingWork.run { _ in
            var fromPipe = (texts: 0, shortcuts: 0)
            for _ in 0..<40_000 {
                if (try? WorkflowLoader.readText(swaps[0].0, limit: Limits.workflowBytes))?.isEmpty == true { fromPipe.texts += 1 }
                if (try? ShortcutSource.bytes(swaps[1].0))?.isEmpty == true { fromPipe.shortcuts += 1 }
            }
            return fromPipe
        }
        #expect(texts == 0 && shortcuts == 0, "\(texts) workflow and \(shortcuts) shortcut reads were of the FIFO")
    }
}
