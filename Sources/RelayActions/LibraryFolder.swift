import Foundation
import RelayKit

/// Where a built-in library keeps its files: an environment variable (which a command-line flag
/// such as `--photos DIR` sets), else a folder in the home folder.
enum LibraryFolder {
    static func path(variable: String, fallback: String) -> String {
        let configured = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        return FileReference(path: configured ?? fallback).originalPath
    }
}
