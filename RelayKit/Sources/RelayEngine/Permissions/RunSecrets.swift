import Foundation
import RelayKit

/// The secrets a run reads (Docs/Runs.md, "Secrets"): their values, where each may be sent, and
/// the texts made from them. A secret is known by its text: any text that holds a secret's value —
/// as written, or encoded for a URL or JSON — is secret, and is shown as `•••`; a text a step made
/// from a secret (encoded, changed in case) is added as the secret's too (`derive`).
public final class RunSecrets: @unchecked Sendable {
    /// What a secret is shown as.
    public static let mask = "•••"

    /// The secrets the step under way was given, by name: what it sends, writes or hands to a
    /// package is checked against their pins (`AccessGate.authorize`).
    @TaskLocal public static var carried: Set<String> = []

    /// Whether a secret chose that the step under way runs (a branch, a loop or a `when:` that
    /// went by one): what it shows, notifies, warns or asks would tell which way the choice
    /// went, so it shows nothing and asks nothing (Docs/Runs.md, "Secrets follow what is made
    /// from them").
    @TaskLocal public static var chosen = false

    /// The secrets of the files the step under way has read that the run wrote from a secret
    /// (`noteWritten`): its output carries them, and what it writes or sends is held to their
    /// pins. Set only in a run that has written such a file.
    @TaskLocal public static var stepReads: SecretCollector?

    /// The files (and folders) the run wrote from secrets, resolved, with the secrets' names.
    private var labelledFiles: [String: Set<String>] = [:]

    /// Whether the run has written a file from a secret. Read without the lock, like `isEmpty`.
    public private(set) var hasLabelledFiles = false

    /// Whether any run of this process has: until one has, a step need not look for the run's
    /// secrets to ask (a look at a task-local value costs every step).
    nonisolated(unsafe) public private(set) static var anyLabelledFiles = false

    /// Notes that `path` was written by a step holding `names`: what is read from it later is
    /// made from them.
    public func noteWritten(_ path: String, names: Set<String>) {
        guard !names.isEmpty else { return }
        let resolved = ResolvedPath.resolve(path)
        lock.withLock {
            labelledFiles[resolved, default: []].formUnion(names)
            hasLabelledFiles = true
            Self.anyLabelledFiles = true
        }
        startFollowing()
    }

    /// The secrets of what reading `path` reads that the run wrote from them: the file itself,
    /// a file in a folder written from them, or such files in a folder read whole.
    public func names(readingFrom path: String) -> Set<String> {
        guard hasLabelledFiles else { return [] }
        let resolved = ResolvedPath.resolve(path)
        return lock.withLock {
            var found: Set<String> = []
            for (file, names) in labelledFiles
            where ResolvedPath.path(resolved, isWithin: file) || ResolvedPath.path(file, isWithin: resolved) {
                found.formUnion(names)
            }
            return found
        }
    }

    /// The files (and folders) the run wrote from secrets that are still there, with the
    /// secrets' names: a program or a package's host may read them without asking Relay.
    public func existingLabelledFiles() -> [(path: String, names: Set<String>)] {
        guard hasLabelledFiles else { return [] }
        let files = lock.withLock { labelledFiles.map { (path: $0.key, names: $0.value) } }
        return files.filter { file in
            var status = stat()
            return lstat(file.path, &status) == 0
        }
    }

    /// Whether `message` holds `text`: the whole of it, or, for a text of six characters or more,
    /// any six of them in a row (a message may quote a value cut short). A short text counts
    /// only standing as a word of its own. Only the first 64 KiB of `text` are looked at.
    public static func quotes(_ text: String, in message: String) -> Bool {
        let scalars = Array(text.unicodeScalars.prefix(65_536))
        guard !scalars.isEmpty else { return false }
        let said = Array(message.unicodeScalars)
        let window = 6
        guard scalars.count >= window else {
            // As a word: not inside a longer run of letters and digits.
            var start = said.startIndex
            while start + scalars.count <= said.count {
                if Array(said[start..<start + scalars.count]) == scalars {
                    let before = start == 0 ? nil : said[start - 1], after = start + scalars.count < said.count ? said[start + scalars.count] : nil
                    let joined = { (scalar: Unicode.Scalar?) in scalar.map { $0.properties.isAlphabetic || $0.properties.numericType != nil } ?? false }
                    if !joined(before) && !joined(after) { return true }
                }
                start += 1
            }
            return false
        }
        guard said.count >= window else { return false }
        var windows = Set<String>()
        for start in 0...(scalars.count - window) { windows.insert(String(String.UnicodeScalarView(scalars[start..<start + window]))) }
        for start in 0...(said.count - window) where windows.contains(String(String.UnicodeScalarView(said[start..<start + window]))) { return true }
        return false
    }

    private struct Fragment {
        let text: String
        let name: String
        /// The text's UTF-8 bytes, which `holds` looks for.
        let bytes: [UInt8]

        init(text: String, name: String) {
            self.text = text
            self.name = name
            bytes = Array(text.utf8)
        }
    }

    private let lock = NSLock()
    /// Every text known to be secret, longest first (so a longer one is masked whole).
    private var fragments: [Fragment] = []
    private var values: [String: String] = [:]
    private var pins: [String: Pin] = [:]
    /// The longest fragment's length in Unicode scalars.
    private var longest = 0

    public init() {}

    /// Whether the run has no secrets: then nothing needs masking or checking. Read without the
    /// lock (every action step asks): it turns false once, when the first secret is added before
    /// the steps that use it, and never back.
    public private(set) var isEmpty = true

    /// Whether a step has named a secret yet (`${secrets.NAME}`): until one does, no value of the
    /// run was made from a secret, and its steps have no labels to follow (Docs/Runs.md, "Secrets
    /// follow what is made from them"). Read without the lock, like `isEmpty`: it turns true once,
    /// before the step that names the secret runs, and never back.
    public private(set) var isFollowing = false

    /// Notes that a step names a secret: from now on every step follows labels.
    public func startFollowing() {
        if !isFollowing { isFollowing = true }
    }

    /// The names of the secrets the run has read.
    public var names: [String] { lock.withLock { values.keys.sorted() } }

    /// The value of the secret `name`, once `add`ed.
    public func value(of name: String) -> String? { lock.withLock { values[name] } }

    /// Adds the secret `name` with `value`, and the forms a URL or JSON text gives it (JSON in
    /// JSON too: a request's body shown in a server's answer); and each long run of its letters
    /// and digits, so that a form not thought of here still shows no more than its punctuation.
    public func add(_ name: String, value: String) {
        guard !value.isEmpty else { return }
        let json = Self.jsonEscaped(value)
        var forms: Set<String> = [value, json, Self.jsonEscaped(json)]
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-.~"))
        for piece in value.components(separatedBy: plain.inverted) where piece.count >= Self.shortestPiece { forms.insert(piece) }
        for start in ["https://h/", "https://h/?q=", "https://h/#"] {
            var url = URLText()
            url.appendLiteral(start)
            url.appendValue(value)
            forms.insert(String(url.text.dropFirst(start.count)))
        }
        if let strict = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { forms.insert(strict) }
        lock.withLock {
            values[name] = value
            for form in forms where !form.isEmpty { insert(Fragment(text: form, name: name)) }
            isEmpty = false
        }
    }

    /// The shortest run of a secret's letters and digits masked on its own.
    static let shortestPiece = 8

    private static func jsonEscaped(_ text: String) -> String {
        String(JSONWriter.string(for: .text(text), pretty: false).dropFirst().dropLast())
    }

    /// Where what is made from a pinned secret may go (Docs/Runs.md, "Secrets"): hosts it may be
    /// sent to, folders (or files) it may be written in, programs it may be handed to.
    public struct Pin: Sendable, Equatable {
        public var hosts: [String]
        /// Resolved paths.
        public var folders: [String]
        /// Program names (or paths).
        public var programs: [String]

        public init(hosts: [String], folders: [String] = [], programs: [String] = []) {
            self.hosts = hosts.map { $0.lowercased() }
            self.folders = folders
            self.programs = programs
        }

        /// The places, for a person: the hosts, then "writing in" each folder, then "the program" each program.
        public var places: [String] {
            hosts + folders.map { "writing in \(ResolvedPath.abbreviated($0))" } + programs.map { "the program \($0)" }
        }
    }

    /// Pins the secret `name` to `hosts`: it may be sent to them and nowhere else.
    public func pin(_ name: String, to hosts: [String]) { pin(name, to: Pin(hosts: hosts)) }

    /// Pins the secret `name` to `pin`'s places and nowhere else.
    public func pin(_ name: String, to pin: Pin) {
        lock.withLock { pins[name] = pin }
    }

    /// Where `name` may go, or nil when it is not pinned.
    public func pins(of name: String) -> Pin? { lock.withLock { pins[name] } }

    private func insert(_ fragment: Fragment) {
        guard !fragments.contains(where: { $0.text == fragment.text }) else { return }
        let index = fragments.firstIndex { $0.text.count < fragment.text.count } ?? fragments.count
        fragments.insert(fragment, at: index)
        longest = max(longest, fragment.text.unicodeScalars.count)
    }

    /// `text` with the secrets of the run under way masked: for an action that shows text itself
    /// (a desktop notification) rather than through the run's output.
    public static func masked(_ text: String) -> String {
        AccessGate.running?.secrets.redact(text) ?? text
    }

    /// The shortest text made from a secret that is taken as secret too: a shorter one ("40", "yes")
    /// says too little of it and would mask ordinary words.
    public static let shortestDerived = 6

    /// Adds `value`'s text, made by a step given the secrets `names`, as theirs: unless it is
    /// short, or already holds a secret (then it is masked where it holds one).
    public func derive(_ value: Value, from names: Set<String>) {
        guard let name = names.sorted().first, case .text(let text) = value, text.count >= Self.shortestDerived,
            self.names(in: text).isEmpty
        else { return }
        lock.withLock { insert(Fragment(text: text, name: name)) }
    }

    /// The names of the secrets `text` holds.
    public func names(in text: String) -> Set<String> {
        let fragments = lock.withLock { self.fragments }
        var found: Set<String> = []
        for fragment in fragments where !found.contains(fragment.name) && Self.holds(text, fragment.bytes) { found.insert(fragment.name) }
        return found
    }

    /// The names of the secrets `value` holds, looking into lists, dictionaries (keys too) and
    /// the paths of files.
    public func names(in value: Value) -> Set<String> {
        guard !isEmpty else { return [] }
        var found: Set<String> = []
        collect(value, into: &found)
        return found
    }

    private func collect(_ value: Value, into found: inout Set<String>) {
        switch value {
        case .text(let text): found.formUnion(names(in: text))
        case .url(let url): found.formUnion(names(in: url.absoluteString))
        case .file(let file): found.formUnion(names(in: file.path))
        case .richText(let text): found.formUnion(names(in: text.plainText))
        case .list(let items): for item in items { collect(item, into: &found) }
        case .dictionary(let entries):
            for (key, item) in entries {
                found.formUnion(names(in: key))
                collect(item, into: &found)
            }
        case .entity(let entity): collect(.dictionary(entity.dictionaryNow), into: &found)
        case .nothing, .number, .boolean, .date: break
        }
    }

    /// Whether `text` holds `fragment`'s characters as they are encoded, whatever follows them: a
    /// combining mark written after a secret does not hide it (a comparison of characters would
    /// see another character there).
    /// Looked for byte by byte: every action step given text asks, and a search of characters
    /// costs a step a microsecond.
    static func holds(_ text: String, _ fragment: [UInt8]) -> Bool {
        guard let first = fragment.first else { return false }
        let found = text.utf8.withContiguousStorageIfAvailable { holds($0, fragment, first) }
        if let found { return found }
        return Array(text.utf8).withUnsafeBufferPointer { holds($0, fragment, first) }
    }

    private static func holds(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], _ first: UInt8) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// `text` with every secret in it shown as `•••`; also a secret's start that a shortened
    /// message cut off before "…" (`Excerpt`), so no part of one is shown.
    public func redact(_ text: String) -> String {
        guard !isEmpty else { return text }
        let fragments = lock.withLock { self.fragments }
        guard !fragments.isEmpty else { return text }
        var result = text
        for fragment in fragments where Self.holds(result, fragment.bytes) {
            result = result.replacingOccurrences(of: fragment.text, with: Self.mask, options: .literal)
        }
        guard result.contains("…") else { return result }
        return maskingCutStarts(in: result, of: fragments)
    }

    /// The first `limit` characters of `text`, with its secrets masked before it is cut (so that
    /// no secret is cut in two and shown in part), and "…" when there was more.
    public func redactedStart(of text: String, limit: Int) -> (text: String, more: Bool) {
        let window = text.prefix(limit + 1 + lock.withLock { longest })
        let redacted = redact(String(window))
        let more = redacted.count > limit || window.endIndex != text.endIndex
        return (String(redacted.prefix(limit)), more)
    }

    /// Masks, before each "…", the longest start (four characters or more) of a secret that ends
    /// there, and after it the longest end of one that starts there. Compared by Unicode scalars,
    /// as `holds` compares.
    private func maskingCutStarts(in text: String, of fragments: [Fragment]) -> String {
        var result = ""
        var rest = Substring(text)
        while let ellipsis = rest.firstIndex(of: "…") {
            var before = Array(rest[..<ellipsis].unicodeScalars)
            for fragment in fragments {
                let secret = Array(fragment.text.unicodeScalars)
                var length = min(secret.count - 1, before.count)
                while length >= 4 {
                    if before.suffix(length).elementsEqual(secret.prefix(length)) {
                        before.removeLast(length)
                        before += Self.mask.unicodeScalars
                        break
                    }
                    length -= 1
                }
            }
            result.unicodeScalars.append(contentsOf: before)
            result += "…"
            rest = rest[rest.index(after: ellipsis)...]
            // The end of a secret that a message cut at its start ("…" then the last characters
            // of a script's errors) shows just after the "…".
            let after = Array(rest.unicodeScalars.prefix(lock.withLock { longest }))
            var masked = 0
            for fragment in fragments {
                let secret = Array(fragment.text.unicodeScalars)
                var length = min(secret.count - 1, after.count)
                while length >= 4, length > masked {
                    if after.prefix(length).elementsEqual(secret.suffix(length)) {
                        masked = length
                        break
                    }
                    length -= 1
                }
            }
            if masked > 0 {
                result += Self.mask
                rest = Substring(String(String.UnicodeScalarView(rest.unicodeScalars.dropFirst(masked))))
            }
        }
        return result + rest
    }
}
