import Foundation
import RelayKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `read(2)`, by a name no method here shadows.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Zip and tar archives through libarchive, opened with `dlopen` on first use (Debian's
/// `libarchive13`), so that runs with no archive do not load it. Reading is a walk over entries
/// that never writes anything itself: what an entry may be, and where it may go, is decided by
/// `ArchiveEntryName` and the actions (Docs/Language.md, "Archives").
package enum Archive {
    /// What libarchive answers.
    static let ok: Int32 = 0, eof: Int32 = 1, warn: Int32 = -20

    /// The kinds of entry a Relay archive holds.
    package enum Kind: Sendable, Equatable { case file, folder, link, other }

    /// One entry read: its name as the archive gives it, its kind and, for a file, its bytes
    /// (handed to `body` a piece at a time).
    package struct Entry: Sendable {
        package let name: String
        package let kind: Kind
        package let size: Int64?
    }

    /// The formats `make-archive` writes.
    package enum Format: String, Sendable, CaseIterable {
        case zip
        case tarGzip = "tar.gz"

        /// The format a file name's ending names, if any.
        package init?(fileName: String) {
            let lowered = fileName.lowercased()
            if lowered.hasSuffix(".zip") { self = .zip } else if lowered.hasSuffix(".tar.gz") || lowered.hasSuffix(".tgz") { self = .tarGzip } else { return nil }
        }
    }

    // MARK: - The library

    private typealias New = @convention(c) () -> OpaquePointer?
    private typealias OnArchive = @convention(c) (OpaquePointer?) -> Int32
    private typealias OpenFD = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    private typealias OpenMemory = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    private typealias NextHeader = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias EntryText = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias EntryMode = @convention(c) (OpaquePointer?) -> UInt32
    private typealias EntrySize = @convention(c) (OpaquePointer?) -> Int64
    private typealias ReadData = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int) -> Int
    private typealias ErrorText = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias OpenFile = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    private typealias EntryNew = @convention(c) () -> OpaquePointer?
    private typealias EntryFree = @convention(c) (OpaquePointer?) -> Void
    private typealias EntrySetText = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void
    private typealias EntrySetMode = @convention(c) (OpaquePointer?, UInt32) -> Void
    private typealias EntrySetSize = @convention(c) (OpaquePointer?, Int64) -> Void
    private typealias EntrySetTime = @convention(c) (OpaquePointer?, Int, Int) -> Void
    private typealias WriteHeader = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    private typealias WriteData = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int

    private static let library = SharedObject(
        names: ["libarchive.so.13", "libarchive.so", "libarchive.13.dylib", "/opt/homebrew/opt/libarchive/lib/libarchive.dylib"],
        purpose: "reading and writing archives")

    private static func function<T>(_ name: String, _ type: T.Type) throws -> T { try library.function(name, as: type) }

    // MARK: - Reading

    /// Walks the archive open at `descriptor` (zip, or tar plain or compressed), calling `visit`
    /// with each entry and a function that reads its bytes a piece at a time into a handler.
    /// `stop` is looked at between pieces.
    package static func read(
        descriptor: Int32, name: String, stop: StopFlag? = nil,
        _ visit: (Entry, (_ piece: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        let archive = try open(name: name) { archive in try function("archive_read_open_fd", OpenFD.self)(archive, descriptor, 1 << 16) }
        try walk(archive, name: name, stop: stop, visit)
    }

    /// The same over bytes in memory (the fuzz target's way in).
    package static func read(
        bytes: [UInt8], name: String,
        _ visit: (Entry, (_ piece: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        guard !bytes.isEmpty else { throw IntentError("'\(name)' is empty, not an archive") }
        try bytes.withUnsafeBytes { buffer in
            let archive = try open(name: name) { archive in
                try function("archive_read_open_memory", OpenMemory.self)(archive, buffer.baseAddress, buffer.count)
            }
            try walk(archive, name: name, stop: nil, visit)
        }
    }

    private static func open(name: String, _ opening: (OpaquePointer) throws -> Int32) throws -> OpaquePointer {
        guard let archive = try function("archive_read_new", New.self)() else { throw IntentError("cannot read archives: out of memory") }
        // Named filters only: "all" includes ones that start other programs (lrzip, lzop …),
        // which an archive from elsewhere must never do; these three are libarchive's own code.
        for filter in ["archive_read_support_filter_gzip", "archive_read_support_filter_bzip2", "archive_read_support_filter_xz"] {
            _ = try function(filter, OnArchive.self)(archive)
        }
        _ = try function("archive_read_support_format_zip", OnArchive.self)(archive)
        _ = try function("archive_read_support_format_tar", OnArchive.self)(archive)
        guard try opening(archive) == ok else {
            let reason = try errorText(archive)
            _ = try function("archive_read_free", OnArchive.self)(archive)
            throw IntentError("cannot read '\(name)' as an archive: \(reason)")
        }
        return archive
    }

    private static func walk(
        _ archive: OpaquePointer, name: String, stop: StopFlag?,
        _ visit: (Entry, (_ piece: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Void
    ) throws {
        let free = try function("archive_read_free", OnArchive.self)
        defer { _ = free(archive) }
        let next = try function("archive_read_next_header", NextHeader.self)
        let pathname = try function("archive_entry_pathname_utf8", EntryText.self)
        let rawPathname = try function("archive_entry_pathname", EntryText.self)
        let fileType = try function("archive_entry_filetype", EntryMode.self)
        let size = try function("archive_entry_size", EntrySize.self)
        let sizeIsSet = try function("archive_entry_size_is_set", OnArchive.self)
        let readData = try function("archive_read_data", ReadData.self)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if stop?.isRaised == true { throw CancellationError() }
            var header: OpaquePointer?
            let status = next(archive, &header)
            if status == eof { return }
            guard status == ok || status == warn, let header else {
                throw IntentError("cannot read '\(name)': \(try errorText(archive))")
            }
            guard let text = pathname(header) ?? rawPathname(header) else {
                throw IntentError("'\(name)' has an entry without a name")
            }
            let kind: Kind =
                switch fileType(header) & 0o170000 {
                case 0o100000: .file
                case 0o040000: .folder
                case 0o120000: .link
                default: .other
                }
            let entry = Entry(name: String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self),
                kind: kind, size: sizeIsSet(header) != 0 ? size(header) : nil)
            try visit(entry) { piece in
                while true {
                    if stop?.isRaised == true { throw CancellationError() }
                    let count = buffer.withUnsafeMutableBytes { readData(archive, $0.baseAddress, $0.count) }
                    if count == 0 { return }
                    guard count > 0 else { throw IntentError("cannot read '\(entry.name)' in '\(name)': \(try errorText(archive))") }
                    try buffer.withUnsafeBytes { try piece(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                }
            }
        }
    }

    private static func errorText(_ archive: OpaquePointer) throws -> String {
        try function("archive_error_string", ErrorText.self)(archive).map { String(cString: $0) } ?? "not an archive Relay reads (zip, tar, tar.gz)"
    }

    // MARK: - Writing

    /// Writes an archive of `format` at `path` holding `entries` (a name inside the archive, and
    /// the file it comes from, or nil for a folder), each file read a piece at a time.
    package static func write(_ entries: [(name: String, source: FileReference?)], format: Format, to path: String, stop: StopFlag?) throws {
        guard let archive = try function("archive_write_new", New.self)() else { throw IntentError("cannot write archives: out of memory") }
        defer { _ = try? function("archive_write_free", OnArchive.self)(archive) }
        switch format {
        case .zip: _ = try function("archive_write_set_format_zip", OnArchive.self)(archive)
        case .tarGzip:
            _ = try function("archive_write_set_format_pax_restricted", OnArchive.self)(archive)
            _ = try function("archive_write_add_filter_gzip", OnArchive.self)(archive)
        }
        guard try function("archive_write_open_filename", OpenFile.self)(archive, path) == ok else {
            throw IntentError("cannot write the archive '\(path)': \(try errorText(archive))")
        }
        let newEntry = try function("archive_entry_new", EntryNew.self), freeEntry = try function("archive_entry_free", EntryFree.self)
        let setName = try function("archive_entry_set_pathname_utf8", EntrySetText.self)
        let setType = try function("archive_entry_set_filetype", EntrySetMode.self)
        let setPermissions = try function("archive_entry_set_perm", EntrySetMode.self)
        let setSize = try function("archive_entry_set_size", EntrySetSize.self)
        let setTime = try function("archive_entry_set_mtime", EntrySetTime.self)
        let writeHeader = try function("archive_write_header", WriteHeader.self)
        let writeData = try function("archive_write_data", WriteData.self)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for (name, source) in entries {
            if stop?.isRaised == true { throw CancellationError() }
            guard let header = newEntry() else { throw IntentError("cannot write archives: out of memory") }
            defer { freeEntry(header) }
            setName(header, name)
            var descriptor: Int32 = -1
            defer { if descriptor >= 0 { close(descriptor) } }
            if let source {
                do { descriptor = try source.openForReading() } catch { throw IntentError(error.message) }
                var info = stat()
                guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw IntentError("'\(source.path)' is not a file that can go in an archive")
                }
                setType(header, 0o100000)
                setPermissions(header, UInt32(info.st_mode & 0o777))
                setSize(header, Int64(info.st_size))
                setTime(header, Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
            } else {
                setType(header, 0o040000)
                setPermissions(header, 0o755)
            }
            guard writeHeader(archive, header) == ok else { throw IntentError("cannot add '\(name)' to the archive: \(try errorText(archive))") }
            guard descriptor >= 0 else { continue }
            while true {
                if stop?.isRaised == true { throw CancellationError() }
                let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
                if count == 0 { break }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw IntentError("cannot read '\(source?.path ?? name)': \(String(cString: strerror(errno)))")
                }
                let written = buffer.withUnsafeBytes { writeData(archive, $0.baseAddress, count) }
                guard written == count else { throw IntentError("cannot write '\(name)' into the archive: \(try errorText(archive))") }
            }
        }
        guard try function("archive_write_close", OnArchive.self)(archive) == ok else {
            throw IntentError("cannot finish the archive '\(path)': \(try errorText(archive))")
        }
    }
}

/// The place an archive entry's name gives it inside the folder extracted into: only relative
/// paths that stay inside, without `..`, empty parts or control characters.
package enum ArchiveEntryName {
    /// The parts of `name`'s path, or why it cannot be extracted.
    package static func parts(_ name: String) -> Result<[String], IntentError> {
        if name.hasPrefix("/") || name.hasPrefix("\\") { return .failure(IntentError("'\(shown(name))' is an absolute path")) }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(IntentError("'\(shown(name))' has a control character in its name"))
        }
        // Windows' separator too: a zip made there may use it.
        let parts = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init).filter { $0 != "." }
        if parts.contains("..") { return .failure(IntentError("'\(shown(name))' leads out of the folder (..)")) }
        if parts.isEmpty { return .failure(IntentError("an entry has an empty name")) }
        if let long = parts.first(where: { $0.utf8.count > 255 }) {
            return .failure(IntentError("'\(shown(long))' is longer than a file name may be"))
        }
        return .success(parts)
    }

    static func shown(_ name: String) -> String {
        Excerpt.start(of: String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 })), limit: 120)
    }
}
