import Foundation
import RelayKit
import RelayEngine
import RelayActions

/// Line editing, history and tab completion for the REPL on a terminal, through libedit's
/// readline interface — opened with `dlopen` when a REPL starts on a terminal, so that no other
/// command pays for loading it. Nil when libedit is not installed: the REPL then reads plain lines.
final class LineEditor {
    /// What the completer is given: the whole line so far, and the word being completed (which
    /// starts at `start` in the line). It returns the words that may replace that word.
    typealias Completer = (_ line: String, _ word: String, _ start: Int) -> [String]

    private typealias ReadLine = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    private typealias TakesText = @convention(c) (UnsafePointer<CChar>?) -> Int32
    private typealias Attempted = @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    private let library = SharedObject(names: ["libedit.so.2", "libedit.so", "libedit.3.dylib", "libedit.dylib"], purpose: "line editing")
    private let readLineFunction: ReadLine
    private let addHistoryFunction: TakesText
    private let writeHistoryFunction: TakesText
    private let historyFile: String

    /// The completer the C callback reaches (libedit takes a plain function pointer, no context).
    nonisolated(unsafe) private static var completer: Completer?
    nonisolated(unsafe) private static var lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    init?(historyFile: String, completer: @escaping Completer) {
        do {
            readLineFunction = try library.function("readline", as: ReadLine.self)
            addHistoryFunction = try library.function("add_history", as: TakesText.self)
            writeHistoryFunction = try library.function("write_history", as: TakesText.self)
            let readHistory = try library.function("read_history", as: TakesText.self)
            let usingHistory = try library.function("using_history", as: (@convention(c) () -> Void).self)
            let stifle = try library.function("stifle_history", as: (@convention(c) (Int32) -> Void).self)
            self.historyFile = historyFile
            usingHistory()
            stifle(1000)
            try? PrivateState.makeFolder((historyFile as NSString).deletingLastPathComponent)
            _ = readHistory(historyFile)
            try Self.installCompletion(library, completer)
        } catch {
            return nil
        }
    }

    /// Reads a line with editing; nil at the end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        guard let line = readLineFunction(prompt) else { return nil }
        defer { free(line) }
        return String(cString: line)
    }

    /// Adds `line` to the history and saves the history file.
    func remember(_ line: String) {
        _ = addHistoryFunction(line)
        _ = writeHistoryFunction(historyFile)
    }

    private static func installCompletion(_ library: SharedObject, _ completer: @escaping Completer) throws {
        Self.completer = completer
        lineBuffer = try library.address(of: "rl_line_buffer").assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        // Completion appends nothing itself (the candidates carry their own ': ' or '}'), and never
        // falls back to file names.
        try library.address(of: "rl_completion_append_character").assumingMemoryBound(to: Int32.self).pointee = 0
        let attempted: Attempted = { text, start, _ in
            let word = text.map { String(cString: $0) } ?? ""
            let line = LineEditor.lineBuffer?.pointee.map { String(cString: $0) } ?? word
            let candidates = LineEditor.completer?(line, word, Int(start)) ?? []
            return LineEditor.matches(for: word, candidates)
        }
        try library.address(of: "rl_attempted_completion_function").assumingMemoryBound(to: Attempted?.self).pointee = attempted
        try library.address(of: "rl_attempted_completion_over").assumingMemoryBound(to: Int32.self).pointee = 1
    }

    /// The array readline wants: the common prefix of the candidates, then each, then NULL; all malloc'd
    /// (readline frees them). NULL when nothing matches.
    private static func matches(for word: String, _ candidates: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        let fitting = candidates.filter { $0.hasPrefix(word) }
        guard let first = fitting.first else { return nil }
        var prefix = first
        for candidate in fitting.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        let entries = [prefix] + (fitting.count > 1 ? fitting : [])
        guard let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))?
            .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        else { return nil }
        for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
        array[entries.count] = nil
        return array
    }
}
