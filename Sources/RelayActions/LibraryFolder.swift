import Foundation
import RelayKit

/// Where a built-in library keeps its files: an environment variable (which a command-line flag
/// such as `--photos DIR` sets), else a folder in the home folder.
enum LibraryFolder {
    /// Values that stand in for environment variables within a task (so that tests running side
    /// by side can each have their own folders).
    @TaskLocal static var overrides: [String: String] = [:]

    /// The value of the environment variable `name`, or its override; nil when unset or empty.
    static func variable(_ name: String) -> String? {
        let value = overrides[name] ?? ProcessInfo.processInfo.environment[name]
        return value.flatMap { $0.isEmpty ? nil : $0 }
    }

    static func path(variable name: String, fallback: String) -> String {
        FileReference(path: variable(name) ?? fallback).originalPath
    }
}
