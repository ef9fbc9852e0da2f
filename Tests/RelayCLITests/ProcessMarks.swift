import Foundation

/// Processes found by their command lines: a program Relay starts sees its own process numbers
/// (a namespace of its own), so tests know its processes by a mark they gave them.
enum ProcessMarks {
    /// The processes whose command line holds `mark`, zombies left out.
    static func running(marked mark: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: line, as: UTF8.self).contains(mark),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
            else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
    }
}
