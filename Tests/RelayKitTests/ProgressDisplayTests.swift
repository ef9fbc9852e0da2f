import Foundation
import RelayKit
import Testing

@Suite("Progress of long work")
struct ProgressDisplayTests {
    @Test("work over half a second reports its progress, then clears the bar")
    func longWork() async throws {
        let log = ProgressLog()
        let context = NullContext(progress: log)
        let bytes = ByteProgress()
        bytes.expect(4_000_000)
        let result = try await context.showingProgress({ bytes.display }) {
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(300))
                bytes.advance(by: 1_000_000)
            }
            return "done"
        }
        #expect(result == "done")
        let reported = log.reported
        #expect(reported.count >= 2, "\(reported)")
        #expect(reported.dropLast().allSatisfy { (0...1).contains($0.fraction) && $0.label?.hasSuffix(" of 4 MB") == true }, "\(reported)")
        #expect(reported.last.map { $0.fraction == 1 && $0.label == nil } == true, "\(reported)")

        // Quick work gives its value (a loaded machine may still show the bar for a moment: then it is cleared).
        let quick = ProgressLog()
        #expect(try await NullContext(progress: quick).showingProgress({ bytes.display }) { 7 } == 7)
        #expect(quick.reported.isEmpty || quick.reported.last?.label == nil, "\(quick.reported)")
    }

    @Test("work that fails still clears the bar, and its error comes out")
    func failingWork() async throws {
        struct Failure: Error {}
        let log = ProgressLog()
        await #expect(throws: Failure.self) {
            try await NullContext(progress: log).showingProgress({ (0.5, "half") }) {
                try await Task.sleep(for: .milliseconds(900))
                throw Failure()
            } as Int
        }
        #expect(log.reported.last.map { $0.fraction == 1 } == true, "\(log.reported)")
    }
}
