import Foundation
import RelayKit

internal import CFileStatus

/// A folder opened once with no symbolic link anywhere along its path, for a change whose names
/// are all in it (a rename within a folder): the looks at those names, the change itself and the
/// look after it are made relative to this one opening, so the folder the gate allowed is the one
/// changed, and a link put in its place later leads nothing elsewhere (Docs/Security.md, "Paths").
final class LinkFreeFolder {
    /// The folder's path, which is also its resolved path: no link is along it.
    let path: String
    private let descriptor: Int32

    /// The folder at the absolute, standardized `path`, or nil when it is not one with no link
    /// along it, or the system cannot tell in one call (the caller takes the general way).
    init?(_ path: String) {
        guard path == "/" || FileReference.isStandardized(path) else { return nil }
        let descriptor = relay_open_link_free_folder(path)
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// What is at `name`, the entry itself (a link is not followed).
    enum Entry {
        case nothing, link, other
    }

    /// What is at `name`; nil when it cannot be looked at.
    func entry(_ name: String) -> Entry? {
        var status = relay_file_status()
        guard relay_file_status_at(descriptor, name, 0, &status) == 0 else { return errno == ENOENT ? .nothing : nil }
        return status.kind == UInt32(S_IFLNK) ? .link : .other
    }

    /// The identity of the file at `name` (following a final link), or nil if there is none.
    func identity(of name: String) -> FileIdentity? {
        var status = relay_file_status()
        guard relay_file_status_at(descriptor, name, 1, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// The path of `name` in this folder.
    func path(of name: String) -> String {
        FileReference.joining(path, name)
    }

    /// Renames `name` to `newName`, only if nothing is at `newName` (refused in the same call).
    func rename(_ name: String, to newName: String) throws(FileOperationError) {
        guard relay_rename_no_replace(descriptor, name, descriptor, newName) == 0 else {
            throw AtomicFile.renameFailure(path(of: name), to: path(of: newName))
        }
        DurableWrites.later(path)
    }
}
