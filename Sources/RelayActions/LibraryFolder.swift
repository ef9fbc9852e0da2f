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

    /// How a file in `folder` — given as a file or as a path — becomes the library's entity
    /// (`make`), when its type conforms to `type`: the value queries of the built-in libraries.
    static func valueQueries<E: Entity>(
        in folder: @escaping @Sendable () -> String, type: ContentType, _ make: @escaping @Sendable (ScannedFile) -> E
    ) -> [EntityValueQuery<E>] {
        let entity: @Sendable (FileReference) -> E? = { file in
            let root = ResolvedPath.resolve(folder())
            let path = ResolvedPath.resolve(file.path)
            guard path.hasPrefix(root + "/"), file.contentType.conforms(to: type) else { return nil }
            return FolderScan.file(String(path.dropFirst(root.count + 1)), in: folder()).map(make)
        }
        return [
            .file(type) { entity($0) },
            // A text that is a path (it has a slash) names the file, not a title.
            .value(.text) { value in
                let text = value.textValue
                guard text.contains("/") else { return nil }
                return entity(FileReference(path: text))
            },
        ]
    }
}
