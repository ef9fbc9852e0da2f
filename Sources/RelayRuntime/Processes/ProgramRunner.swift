internal import CPipeSignal
import Foundation
import RelayKit
import RelayEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program a step asked for (`IntentContext.runProgram`) as a `ChildProcess`: in a session
/// of its own, its input written and its two outputs read on threads of their own, so that no
/// wait holds a cooperative thread, and a cancelled step (a `timeout:`, a signal) stops it and all
/// it started. When the program ends, whatever it left running in its session is killed with it.
enum ProgramRunner {
    /// Runs it with `environment` alone, confined by the kernel to `confinement` when one is given
    /// (where the kernel can: `HostSandbox`), with the system calls that would get around it refused.
    static func run(executable: String, _ program: ProgramRun, confinement: Confinement?, environment: [String: String]) async throws -> ProgramOutcome {
        let ruleset: HostSandbox.Ruleset?
        do throws(HostError) {
            ruleset = try confinement.flatMap { (confinement) throws(HostError) in try HostSandbox.ruleset(for: confinement, of: "'\(program.program)'") }
        } catch {
            throw IntentError(error.message)
        }
        let child: ChildProcess
        do throws(ChildProcessError) {
            child = try ChildProcess(
                executable: executable, arguments: program.arguments, environment: environment, inheritsEnvironment: false, ruleset: ruleset,
                refusedCalls: confinement.map(HostSandbox.refusedCalls) ?? [], contained: true,
                treeMemory: ChildProcess.configuredProgramMemory)
        } catch {
            throw IntentError(error.message)
        }
        let overflowed = StopFlag()
        async let written: Void = write(program.input, to: child.input)
        async let output = collect(child.output, .first, program.outputLimit) {
            overflowed.raise()
            child.stop()
        }
        async let errors = collect(child.errors, .last, Limits.programErrors)
        let (signalled, status) = await child.termination()
        let outcome = ProgramOutcome(status: status, signalled: signalled, output: await output, errors: await errors)
        await written
        try Task.checkCancellation()
        if child.ranOutOfTreeMemory, let limit = child.controlGroup?.limit {
            throw IntentError(
                "'\(program.program)' ran out of memory: it and the processes it started were using all the \(ByteCount.text(Int64(clamping: limit), binary: true)) "
                    + "they may use together, so the system ended one (set RELAY_PROGRAM_MEMORY to allow more)")
        }
        if overflowed.isRaised {
            throw IntentError(
                "'\(program.program)' wrote more than \(ByteCount.text(Int64(program.outputLimit), binary: true)) to its standard output, so it was stopped; have it write to a file instead")
        }
        return outcome
    }

    /// Writes `data` to the program's standard input, then closes it, so that it sees the end.
    /// A program that ends without reading it all is no error (`EPIPE`: nobody reads any more).
    private static func write(_ data: Data, to handle: FileHandle?) async {
        guard let handle else { return }
        _ = try? await BlockingWork.run { _ in
            if !data.isEmpty {
                _ = data.withUnsafeBytes { relay_write_all(handle.fileDescriptor, $0.baseAddress, $0.count) }
            }
            try? handle.close()
        }
    }

    /// Which bytes of a stream are kept.
    private enum Keep { case first, last }

    /// What the program writes to `handle` until it closes it, read on a thread of its own a piece
    /// at a time: the first `limit` bytes (calling `overflow` once when there are more, and reading
    /// on, dropping them, until the pipe closes), or the last `limit` bytes.
    private static func collect(
        _ handle: FileHandle?, _ keep: Keep, _ limit: Int, overflow: (@Sendable () -> Void)? = nil
    ) async -> Data {
        guard let handle else { return Data() }
        return (try? await BlockingWork.run { _ in
            var kept = Data(), told = false
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                switch keep {
                case .first:
                    let room = max(0, limit - kept.count)
                    kept.append(contentsOf: buffer[0..<min(count, room)])
                    if count > room, !told {
                        told = true
                        overflow?()
                    }
                case .last:
                    kept.append(contentsOf: buffer[0..<count])
                    if kept.count > 2 * limit { kept = Data(kept.suffix(limit)) }
                }
            }
            return keep == .last ? Data(kept.suffix(limit)) : kept
        }) ?? Data()
    }
}
