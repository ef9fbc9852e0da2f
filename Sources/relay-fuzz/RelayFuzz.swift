import Foundation
import RelayFuzzing

// Built by Scripts/fuzz with libFuzzer (`-sanitize=fuzzer,address -DRELAY_FUZZ`), this is a
// coverage-guided fuzzer of one target, named by RELAY_FUZZ_TARGET. Built plainly, it replays
// files: `relay-fuzz TARGET FILE…` (Docs/Reliability.md, "Fuzzing").

/// Runs `target`'s check of `bytes` to its end, from libFuzzer's own (non-cooperative) thread.
/// The semaphore waits on that thread, never on one of Swift's: libFuzzer calls this
/// synchronously, and no workflow step runs here.
private func finding(of target: FuzzTarget, _ bytes: [UInt8]) -> String? {
    final class Outcome: @unchecked Sendable { var finding: String? }
    let outcome = Outcome()
    // Not reachable from a step: this blocks libFuzzer's own thread, never a cooperative one.
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        outcome.finding = await target.check(bytes)
        done.signal()
    }
    done.wait()
    return outcome.finding
}

#if RELAY_FUZZ
private func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

nonisolated(unsafe) private var target = FuzzTarget.json

/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links), run from this program's own
/// `main`: SwiftPM names an executable's entry point itself, so libFuzzer's `main` is not used.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("relay_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    chooseTarget()
    return runDriver(&count, &arguments, testOneInput)
}

private func chooseTarget() {
    let name = ProcessInfo.processInfo.environment["RELAY_FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        say("relay-fuzz: set RELAY_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    target = chosen
}

/// Also libFuzzer's own entry point, which its runtime's (unused) `main` names.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let finding = finding(of: target, bytes) {
        say("relay-fuzz: \(target.rawValue): \(finding)")
        abort()
    }
    return 0
}
#else
@main
struct RelayFuzz {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: relay-fuzz TARGET FILE…  (TARGET: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            exit(2)
        }
        var failed = false
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read it")
                failed = true
                continue
            }
            if let finding = finding(of: target, [UInt8](data)) {
                print("\(path): \(finding)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }
}
#endif
