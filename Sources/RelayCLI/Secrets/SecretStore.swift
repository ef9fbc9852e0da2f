import Foundation
import RelayKit
import RelayRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where secrets' values come from (Docs/Runs.md, "Secrets"): the environment, else the system
/// keyring through the Secret Service (where the session has one), else Relay's secrets file,
/// `$XDG_CONFIG_HOME/relay/secrets.json` (default `~/.config/relay`), which must be the user's own
/// and readable by nobody else (mode 0600).
struct SecretStore {
    var environment: [String: String] = ProcessInfo.processInfo.environment
    var keyring: SecretKeyring? = SecretKeyring.session()
    var file: String = SecretStore.defaultFile

    /// `$XDG_CONFIG_HOME/relay/secrets.json`, else `~/.config/relay/secrets.json`.
    static var defaultFile: String {
        let environment = ProcessInfo.processInfo.environment
        let folder =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (HomeFolder.path as NSString).appendingPathComponent(".config")
        return (folder as NSString).appendingPathComponent("relay/secrets.json")
    }

    /// The most bytes the secrets file may hold.
    static let largestFile = 1 << 20

    /// The value of `name`, from the first place that has it.
    func lookup(_ name: String) -> SecretLookup {
        if let value = environment[name], !value.isEmpty { return .found(value) }
        if let keyring {
            switch keyring.lookup(name) {
            case .success(let value?): return .found(value)
            case .success(nil): break
            case .failure(let problem): return .problem(problem.message)
            }
        }
        do {
            guard let value = try readFile()[name] else { return .missing }
            return .found(value)
        } catch {
            return .problem(error.message)
        }
    }

    /// Looks secrets up for a run, on a thread of its own (the keyring answers over the session's
    /// message bus, and a run's tasks never wait on a thread of Swift's few).
    static let source: SecretSource = { names in
        do {
            return try await BlockingWork.run { _ in
                let store = SecretStore()
                return Dictionary(uniqueKeysWithValues: names.map { ($0, store.lookup($0)) })
            }
        } catch {
            return Dictionary(uniqueKeysWithValues: names.map { ($0, SecretLookup.problem("the run was stopped while it was looked up")) })
        }
    }

    /// The names of the secrets kept by `relay secrets set` (the keyring's and the file's), sorted.
    func names() throws(SecretStoreError) -> [String] {
        var names = Set(try readFile().keys)
        if let keyring {
            switch keyring.names() {
            case .success(let kept): names.formUnion(kept)
            case .failure(let problem): throw problem
            }
        }
        return names.sorted()
    }

    /// Keeps `value` as `name`: in the keyring when the session has one, else in the file. Says where.
    func set(_ name: String, value: String) throws(SecretStoreError) -> String {
        if let keyring {
            if case .failure(let problem) = keyring.store(name, value: value) { throw problem }
            return "the system keyring"
        }
        try changeFile { $0[name] = value }
        return file
    }

    /// Forgets `name` wherever `relay secrets set` kept it; whether it was kept anywhere.
    func remove(_ name: String) throws(SecretStoreError) -> Bool {
        var removed = false
        if let keyring {
            switch keyring.remove(name) {
            case .success(let found): removed = found
            case .failure(let problem): throw problem
            }
        }
        if FileManager.default.fileExists(atPath: file) {
            try changeFile { secrets in removed = secrets.removeValue(forKey: name) != nil || removed }
        }
        return removed
    }

    // MARK: - The file

    /// The file's secrets; none when there is no file. A file that others may read, that is not
    /// the user's own, or that is not a JSON object of texts is refused.
    func readFile() throws(SecretStoreError) -> [String: String] {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return [:] }
            if errno == ELOOP { throw SecretStoreError("the secrets file '\(file)' is a symbolic link; Relay reads only a file of its own there") }
            throw SecretStoreError("cannot read the secrets file '\(file)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SecretStoreError("the secrets file '\(file)' is not a regular file")
        }
        let mode = info.st_mode & 0o777
        guard info.st_uid == getuid() else {
            throw SecretStoreError("the secrets file '\(file)' belongs to another user; Relay reads only a secrets file of your own")
        }
        guard mode & 0o077 == 0 else {
            throw SecretStoreError(
                "the secrets file '\(file)' may be read by others (mode \(String(mode, radix: 8, uppercase: false).leftPadded(to: 4))); "
                    + "it is not read until only you can: run chmod 600 \(ShellQuoting.quoted(file))")
        }
        guard info.st_size <= Self.largestFile else {
            throw SecretStoreError("the secrets file '\(file)' is larger than 1 MiB; it holds only names and values")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(descriptor, $0 + filled, buffer.count - filled) } ?? 0
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return try Self.decode(Array(bytes.prefix(filled)), file: file)
    }

    /// A JSON object of names and texts.
    static func decode(_ bytes: [UInt8], file: String) throws(SecretStoreError) -> [String: String] {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { return [:] }
        let value: Value
        do throws(JSONReadError) {
            value = try JSONReader.value(from: bytes)
        } catch {
            throw SecretStoreError("the secrets file '\(file)' is not valid JSON (\(error)); change it with 'relay secrets set' and 'relay secrets remove'")
        }
        guard case .dictionary(let entries) = value else {
            throw SecretStoreError("the secrets file '\(file)' is not a JSON object of names and values")
        }
        var secrets: [String: String] = [:]
        for (name, item) in entries {
            guard case .text(let text) = item else {
                throw SecretStoreError("the secrets file '\(file)': the value of '\(name)' is not a text")
            }
            secrets[name] = text
        }
        return secrets
    }

    /// Reads the file, changes its secrets and writes them back whole, with mode 0600 from the
    /// start; two `relay secrets` at once take turns.
    private func changeFile(_ change: (inout [String: String]) -> Void) throws(SecretStoreError) {
        let folder = (file as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SecretStoreError("cannot make the folder '\(folder)': \(error.localizedDescription)")
            }
        }
        let lock = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw SecretStoreError("cannot lock '\(file)': \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        // `relay secrets` is a command of its own, with nothing else to do while it waits.
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        var secrets = try readFile()
        change(&secrets)
        let entries = ValueDictionary(uniqueKeysWithValues: secrets.sorted { $0.key < $1.key }.map { ($0.key, Value.text($0.value)) })
        let data = Data((JSONWriter.string(for: .dictionary(entries), pretty: true) + "\n").utf8)
        let temporary = file + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw SecretStoreError("cannot write '\(temporary)': \(String(cString: strerror(errno)))") }
        var written = 0
        let complete: Bool = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        let problem = String(cString: strerror(errno))
        close(descriptor)
        guard complete, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw SecretStoreError("cannot write the secrets file '\(file)': \(problem)")
        }
    }
}

/// Why the secrets could not be read or kept.
struct SecretStoreError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
