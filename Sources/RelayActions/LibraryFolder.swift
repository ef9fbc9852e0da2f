import Foundation
import RelayKit
import RelayEngine

/// Where a built-in library keeps its files: a folder given for the run (`--photos DIR`, bound by
/// `LibraryFolders.using`), else an environment variable, else a folder in the home folder.
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
        in folder: @escaping @Sendable () -> String, type: ContentType, extensions: Set<String>, _ make: @escaping @Sendable (ScannedFile) -> E
    ) -> [EntityValueQuery<E>] {
        // Only a file a listing of the library gives (not a hidden one, nor one of another kind).
        let entity: @Sendable (FileReference) -> E? = { file in
            let root = ResolvedPath.resolve(folder())
            let path = ResolvedPath.resolve(file.path)
            guard path.hasPrefix(root + "/"), file.contentType.conforms(to: type) else { return nil }
            return FolderScan.file(String(path.dropFirst(root.count + 1)), in: folder(), extensions: extensions).map(make)
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

/// The folders of the built-in libraries for a run: `--photos` and `--notes`, else the
/// environment (`RELAY_PHOTOS`, `RELAY_NOTES`), else `~/Pictures` and `~/Notes`.
public enum LibraryFolders {
    /// Runs `body` with the photo library in `photos` and the notes in `notes` (nil: as the
    /// environment says), for this task and every task it starts; other runs in the process keep theirs.
    public static func using<T>(photos: String?, notes: String?, _ body: () async throws -> T) async rethrows -> T {
        var overrides = LibraryFolder.overrides
        if let photos { overrides["RELAY_PHOTOS"] = FileReference(path: photos).originalPath }
        if let notes { overrides["RELAY_NOTES"] = FileReference(path: notes).originalPath }
        return try await LibraryFolder.$overrides.withValue(overrides) { try await body() }
    }
}
