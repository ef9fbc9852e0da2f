import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// `relay lsp`'s server (Docs/Editors.md): it keeps each open document's text and checks it again
/// when it changes — after a moment's pause, on a task that a newer change cancels — sending the
/// editor what `relay check` reports of it, at the same ranges, with the same messages.
actor LanguageServer {
    /// An open document: its text and the editor's version of it.
    private struct Document: Sendable {
        var text: String
        var version: Int
        /// Whether an edit could not be applied: the text is not the editor's until the whole comes.
        var lost = false
    }

    /// JSON-RPC's and the protocol's error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
        case requestCancelled = -32800
    }

    private let send: @Sendable (String) -> Void
    private let loader: WorkflowLoader
    /// How long a change waits for the next before the document is checked.
    private let pause: Duration
    private var documents: [String: Document] = [:]
    /// Each document's pause before its check.
    private var checks: [String: Task<Void, Never>] = [:]
    /// The documents waiting for a check, each at its latest version, and whether one is running.
    private var waiting: [String: Document] = [:]
    private var checking = false
    /// Each document's last check: the version, the workflow when it checked, and the loader
    /// with the workflow's packages that could be loaded (what completion and hover then know).
    private var checked: [String: (version: Int, workflow: CheckedWorkflow?, loader: WorkflowLoader, typings: VariableTypings)] = [:]
    private var encoding = EditorText.Encoding.utf16
    /// Whether the editor takes snippets in completions (it says so in `initialize`).
    private var snippets = false
    private var initialized = false
    /// The questions (completion, hover …) waiting for their answer, in the order asked, and
    /// whether they are being answered.
    private var questions: [(id: Value?, work: @Sendable () -> Value)] = []
    private var answering = false
    private var shuttingDown = false

    init(loader: WorkflowLoader, pause: Duration = .milliseconds(40), send: @escaping @Sendable (String) -> Void) {
        self.loader = loader
        self.pause = pause
        self.send = send
    }

    /// Serves the frames until the editor says `exit` or its input ends; the exit status: 0 after
    /// a `shutdown`, else 1 (as the protocol asks).
    func serve(_ frames: some AsyncSequence<MessageFraming.Frame, Never>) async -> Int32 {
        for await frame in frames {
            switch frame {
            case .broken(let reason):
                reply(id: .nothing, error: .parseError, reason)
            case .message(let bytes):
                if let status = handle(bytes) { return await finish(status) }
            }
        }
        return await finish(shuttingDown ? 0 : 1)
    }

    private func finish(_ status: Int32) async -> Int32 {
        for check in checks.values { check.cancel() }
        for last in checked.values { await last.loader.packages.closeAll() }
        return status
    }

    /// Handles one message; the exit status when it was `exit`.
    private func handle(_ bytes: [UInt8]) -> Int32? {
        let message: Value
        do {
            message = try JSONReader.value(from: bytes)
        } catch {
            reply(id: .nothing, error: .parseError, "not JSON: \(error)")
            return nil
        }
        guard case .dictionary(let fields) = message, case .text(let method)? = fields["method"] else {
            // A response to nothing this server asked, or no message at all.
            if case .dictionary(let fields) = message, fields["id"] != nil, fields["result"] != nil || fields["error"] != nil { return nil }
            reply(id: Self.id(in: message), error: .invalidRequest, "a request names its method")
            return nil
        }
        let id = fields["id"]
        // An id is a number or a text (the protocol's), or there is none (a notification).
        if let id, !Self.isIdentifier(id) {
            reply(id: .nothing, error: .invalidRequest, "a request's id is a number or a text")
            return nil
        }
        let params = fields["params"] ?? .nothing
        switch method {
        case "initialize":
            initialized = true
            let offered = params["capabilities"]?["general"]?["positionEncodings"]?.listItems ?? []
            encoding = offered.contains(.text(EditorText.Encoding.utf8.rawValue)) ? .utf8 : .utf16
            snippets = params["capabilities"]?["textDocument"]?["completion"]?["completionItem"]?["snippetSupport"] == .boolean(true)
            let capabilities: Value = [
                "positionEncoding": .text(encoding.rawValue),
                "textDocumentSync": ["openClose": true, "change": 1],
                "completionProvider": ["triggerCharacters": ["-", "{", " ", "."]],
                "hoverProvider": true, "definitionProvider": true, "documentSymbolProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            ]
            reply(id: id, result: ["capabilities": capabilities, "serverInfo": ["name": "relay", "version": .text(RelayCommand.versionNumber)]])
        case "$/cancelRequest":
            // A question not yet answered is answered so, and not worked on.
            if let cancelled = params["id"], let index = questions.firstIndex(where: { $0.id == cancelled }) {
                questions.remove(at: index)
                reply(id: cancelled, error: .requestCancelled, "the editor cancelled it")
            }
        case "initialized", "$/setTrace", "workspace/didChangeConfiguration":
            break
        case "shutdown":
            shuttingDown = true
            for check in checks.values { check.cancel() }
            reply(id: id, result: .nothing)
        case "exit":
            return shuttingDown ? 0 : 1
        case _ where shuttingDown:
            if let id { reply(id: id, error: .invalidRequest, "the server is shutting down: only 'exit' is served now") }
        case _ where !initialized:
            if let id { reply(id: id, error: .serverNotInitialized, "the editor has not sent 'initialize' yet") }
        case "textDocument/didOpen":
            guard let uri = params["textDocument"]?["uri"]?.text, case .text(let text)? = params["textDocument"]?["text"] else { break }
            documents[uri] = Document(text: text, version: params["textDocument"]?["version"]?.wholeNumber ?? 0)
            check(uri, after: .zero)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.text, var document = documents[uri] else { break }
            for change in params["contentChanges"]?.listItems ?? [] {
                guard case .text(let text)? = change["text"] else { continue }
                if let range = change["range"] {
                    // A part changed (an editor may send parts though the server asked for the whole).
                    let editor = EditorText(document.text, encoding: encoding)
                    guard let start = Self.index(range["start"], in: editor), let end = Self.index(range["end"], in: editor), start <= end else {
                        // The text here is no longer the editor's: said, and nothing checked until the whole comes again.
                        document.lost = true
                        continue
                    }
                    document.text.replaceSubrange(start..<end, with: text)
                } else {
                    document.text = text
                    document.lost = false
                }
            }
            document.version = params["textDocument"]?["version"]?.wholeNumber ?? document.version + 1
            documents[uri] = document
            if document.lost {
                checks.removeValue(forKey: uri)?.cancel()
                let lost = "relay lsp could not apply the editor's change (a range the text does not have): close the file and open it again"
                publish(uri, diagnostics: Self.errorAtStart(lost), version: document.version)
            } else {
                check(uri, after: pause)
            }
        case "textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/codeAction", "textDocument/documentSymbol":
            questions.append((id, assist(method, params)))
            if !answering {
                answering = true
                Task { await answerWaiting() }
            }
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.text, documents.removeValue(forKey: uri) != nil else { break }
            checks.removeValue(forKey: uri)?.cancel()
            waiting[uri] = nil
            if let last = checked.removeValue(forKey: uri) { Task { await last.loader.packages.closeAll() } }
            publish(uri, diagnostics: [], version: nil)
        default:
            // A request this server does not serve; a notification it does not know is left alone.
            if let id { reply(id: id, error: .methodNotFound, "'\(method)' is not served by relay lsp") }
        }
        return nil
    }

    /// How to answer a question about a place in an open document, worked out off the actor
    /// from what the document is now; nothing for a document not open or a place it does not have.
    private func assist(_ method: String, _ params: Value) -> @Sendable () -> Value {
        guard let uri = params["textDocument"]?["uri"]?.text, let document = documents[uri] else { return { .nothing } }
        // A YAML file that is no workflow gets no help from Relay, as it gets no diagnostics.
        let path = Self.path(of: uri)
        guard ShortcutSource.isShortcut(path) || Self.isWorkflow(document.text) else {
            return { method == "textDocument/codeAction" || method == "textDocument/documentSymbol" ? .list([]) : .nothing }
        }
        // What the last check loaded of the workflow's packages is known too.
        let (registry, typings, snippets, encoding) = ((checked[uri]?.loader ?? loader).registry, checked[uri]?.typings, snippets, encoding)
        // The workflow as its last check found it, if that was of this text.
        let workflow = checked[uri].flatMap { $0.version == document.version ? $0.workflow : nil }
        let line = params["position"]?["line"]?.wholeNumber ?? -1, character = params["position"]?["character"]?.wholeNumber ?? -1
        return {
            let assistant = WorkflowAssistant(registry: registry, text: EditorText(document.text, encoding: encoding), typings: typings, snippets: snippets)
            switch method {
            case "textDocument/completion":
                return ["isIncomplete": false, "items": .list(assistant.completions(line: line, character: character))]
            case "textDocument/hover":
                guard let described = assistant.hover(line: line, character: character) else { return .nothing }
                return ["contents": ["kind": "markdown", "value": .text("```text\n" + described + "```")]]
            case "textDocument/documentSymbol":
                return .list(assistant.symbols(in: SourceFile(path: path, text: document.text)))
            case "textDocument/definition":
                // A file the workflow names: its first line.
                if let file = assistant.namedFile(line: line, character: character, documentPath: path) {
                    return ["uri": .text(URL(fileURLWithPath: file).absoluteString), "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]]]
                }
                guard let found = assistant.definition(line: line, character: character) else { return .nothing }
                return [
                    "uri": .text(uri),
                    "range": ["start": ["line": .number(Double(found.line)), "character": .number(Double(found.start))],
                              "end": ["line": .number(Double(found.line)), "character": .number(Double(found.end))]],
                ]
            default:
                var actions = assistant.quickFixes(uri: uri, diagnostics: params["context"]?["diagnostics"]?.listItems ?? [])
                if let grants = assistant.grantsFix(uri: uri, workflow: workflow, path: path) { actions.append(grants) }
                return .list(actions)
            }
        }
    }

    /// Answers the questions waiting, one at a time, each on a thread of its own: the actor goes
    /// on taking messages meanwhile, and a question about a huge document holds up only the
    /// questions after it.
    private func answerWaiting() async {
        defer { answering = false }
        while !questions.isEmpty {
            let (id, work) = questions.removeFirst()
            let answer = (try? await BlockingWork.run { _ in work() }) ?? .nothing
            reply(id: id, result: answer)
        }
    }

    /// Checks the document at `uri` after `delay`, unless it changes before. Checks run one at a
    /// time, on a thread of their own, each of a document's latest text: a check of a text
    /// changed meanwhile is not started, and what an older one found is not sent.
    private func check(_ uri: String, after delay: Duration) {
        checks[uri]?.cancel()
        checks[uri] = Task { [weak self] in
            if delay > .zero {
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
            }
            await self?.queue(uri)
        }
    }

    private func queue(_ uri: String) {
        guard let document = documents[uri] else { return }
        waiting[uri] = document
        guard !checking else { return }
        checking = true
        Task { [weak self] in await self?.checkWaiting() }
    }

    /// Checks what waits, one document at a time, until nothing does.
    private func checkWaiting() async {
        defer { checking = false }
        while let (uri, document) = waiting.first {
            waiting[uri] = nil
            guard documents[uri]?.version == document.version, !shuttingDown else { continue }
            let file = SourceFile(path: Self.path(of: uri), text: document.text)
            if ShortcutSource.isShortcut(file.path) {
                // A shortcut is read from its file, as 'relay check' reads it (its bytes are not the
                // editor's text): its diagnostics, each naming the shortcut's action, at its start.
                let (loader, path) = (loader, file.path)
                guard let (workflow, loaded) = try? await BlockingWork.run({ _ in loader.load(path: path) }), documents[uri]?.version == document.version else { continue }
                let found = await WorkflowChecking.diagnostics(of: workflow, loaded: loaded, secrets: RunSecrets())
                publish(uri, diagnostics: Self.protocolDiagnostics(found, in: file, encoding: encoding), version: document.version)
                continue
            }
            // A YAML document that is not a workflow (no top-level `steps:`: a compose file, a CI
            // file, an editor that starts the server for every YAML file) is not Relay's to judge.
            guard Self.isWorkflow(document.text) else {
                publish(uri, diagnostics: [], version: document.version)
                continue
            }
            // Over a workflow file's limit: refused as 'relay check' refuses the file.
            guard document.text.utf8.count <= Limits.workflowBytes else {
                let size = ByteCount.text(Int64(document.text.utf8.count)), most = ByteCount.text(Int64(Limits.workflowBytes))
                publish(uri, diagnostics: Self.errorAtStart("'\(file.path)' is \(size); a workflow file may be at most \(most)"), version: document.version)
                continue
            }
            // The workflow's packages that are trusted and built, each check anew: their sources
            // may have changed. Nothing is asked, built or trusted here.
            let gate = GrantPrompt.gate(for: file.path, granted: [:], interactive: false, advisesFlags: false).gate
            let fresh = WorkflowLoader(registry: loader.registry, loadedPackages: loader.loadedPackages, packages: LoadedPackages())
            let (loader, failures) = await fresh.loadingBuiltPackages(of: file, gate: gate)
            // The load, which for a large workflow takes seconds, holds no task's thread.
            let typings = VariableTypings()
            guard let (workflow, loaded) = try? await BlockingWork.run({ _ in loader.load(file, typings: typings) }), documents[uri]?.version == document.version else {
                await loader.packages.closeAll()
                continue
            }
            if let last = checked[uri] { await last.loader.packages.closeAll() }
            // A text that does not parse (as one being typed often does) keeps the types found last.
            checked[uri] = (document.version, workflow, loader, typings.isChecked ? typings : checked[uri]?.typings ?? typings)
            let found = await WorkflowChecking.diagnostics(
                of: workflow, loaded: Self.packagesUnloaded(loaded, failures: failures, in: file, registry: loader.registry), secrets: RunSecrets())
            publish(uri, diagnostics: Self.protocolDiagnostics(found, in: file, encoding: encoding), version: document.version)
        }
    }

    private func publish(_ uri: String, diagnostics: [Value], version: Int?) {
        // Only what was found of the text as it now is.
        if let version, documents[uri]?.version != version { return }
        var params: ValueDictionary = ["uri": .text(uri), "diagnostics": .list(diagnostics)]
        if let version { params["version"] = .number(Double(version)) }
        notify("textDocument/publishDiagnostics", params: .dictionary(params))
    }

    /// The diagnostics of a workflow some of whose `packages:` could not be loaded (the server
    /// loads those that are trusted and built; building a package on a keystroke is not for an
    /// editor): each such entry gets one note saying why and what to do, and while one is
    /// missing, an action the registry does not know is not called unknown — it may be the
    /// package's.
    static func packagesUnloaded(_ diagnostics: [Diagnostic], failures: [PackageLoadFailure], in file: SourceFile, registry: ActionRegistry) -> [Diagnostic] {
        guard !failures.isEmpty, let parsed = WorkflowParser.parse(file, entityTypes: registry.entityTypes).workflow else { return diagnostics }
        let unloaded = failures.compactMap(\.diagnostic.range)
        var unknown: [SourceRange] = []
        func collect(_ steps: [Step]) {
            for step in steps {
                if case .action(let call) = step.kind, case .notFound = registry.lookup(call.name.text) { unknown.append(call.name.range) }
                for block in step.blocks { collect(block) }
            }
        }
        collect(parsed.steps)
        // A path with no package is the workflow's mistake, an error as 'relay check' says it;
        // a package not trusted or not built yet is a note.
        let notes = failures.map { $0.isInvalidWorkflow ? $0.diagnostic : Diagnostic(.note, $0.diagnostic.message, at: $0.diagnostic.range) }
        return notes + diagnostics.filter { diagnostic in
            guard diagnostic.severity == .error, let range = diagnostic.range else { return true }
            // The loader's own "is not loaded" of the same entry: the note says why instead; and
            // an entity type not known may be the missing package's (`find: trails`).
            return !unloaded.contains(range) && !unknown.contains(range) && !diagnostic.message.hasPrefix("unknown entity type '")
        }
    }

    /// Whether `text` may be a workflow: a line at the left edge whose key is `steps` — written
    /// plain, quoted, with a tag or an anchor, as a `? steps` key, or inside a `{ … }` that starts
    /// there (a workflow written as JSON). A YAML file with no such line (a compose file, a CI
    /// file, whose `steps:` are indented under a job) is not Relay's to judge.
    static func isWorkflow(_ text: String) -> Bool {
        var first = true
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var rest = first && line.hasPrefix("\u{FEFF}") ? line.dropFirst() : line[...]
            first = false
            if rest.hasPrefix("{") { if rest.contains("steps") { return true } else { continue } }
            // `? `, a tag (`!!str `) and an anchor (`&a `) may come before the key.
            while let marker = rest.first, marker == "?" || marker == "!" || marker == "&" {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
            }
            if rest.first == "\"" || rest.first == "'" { rest = rest.dropFirst() }
            guard rest.hasPrefix("steps") else { continue }
            let after = rest.dropFirst(5).drop { $0 == "\"" || $0 == "'" || $0 == " " || $0 == "\t" }
            if after.isEmpty || after.hasPrefix(":") { return true }
        }
        return false
    }

    /// An error of the whole document, at its start.
    static func errorAtStart(_ message: String) -> [Value] {
        protocolDiagnostics([.error(message, at: nil)], in: SourceFile(path: "", text: ""), encoding: .utf16)
    }

    /// Diagnostics as the protocol's.
    static func protocolDiagnostics(_ found: [Diagnostic], in file: SourceFile, encoding: EditorText.Encoding) -> [Value] {
        let editor = EditorText(file.text, encoding: encoding)
        return found.map { diagnostic in
            let range = editor.range(of: diagnostic.range?.file === file ? diagnostic.range : nil, in: file)
            let severity: Double =
                switch diagnostic.severity {
                case .error: 1
                case .warning: 2
                case .note: 3
                }
            let message = ([diagnostic.message] + diagnostic.notes).joined(separator: "\n")
            return [
                "range": [
                    "start": ["line": .number(Double(range.start.line)), "character": .number(Double(range.start.character))],
                    "end": ["line": .number(Double(range.end.line)), "character": .number(Double(range.end.character))],
                ],
                "severity": .number(severity), "source": "relay", "message": .text(message),
            ]
        }
    }

    /// The path of a `file:` URI (percent escapes decoded); another URI as it is.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://"), let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    private static func index(_ position: Value?, in text: EditorText) -> String.Index? {
        guard let line = position?["line"]?.wholeNumber, let character = position?["character"]?.wholeNumber else { return nil }
        return text.index(line: line, character: character)
    }

    private static func isIdentifier(_ id: Value) -> Bool {
        switch id {
        case .number(let number): number == number.rounded() && abs(number) < 1e15
        case .text: true
        default: false
        }
    }

    private static func id(in message: Value) -> Value {
        if case .dictionary(let fields) = message, let id = fields["id"], isIdentifier(id) { return id }
        return .nothing
    }

    private func reply(id: Value?, result: Value) {
        send(JSONWriter.string(for: ["jsonrpc": "2.0", "id": id ?? .nothing, "result": result], pretty: false))
    }

    private func reply(id: Value?, error code: ErrorCode, _ message: String) {
        let error: Value = ["code": .number(Double(code.rawValue)), "message": .text(message)]
        send(JSONWriter.string(for: ["jsonrpc": "2.0", "id": id ?? .nothing, "error": error], pretty: false))
    }

    private func notify(_ method: String, params: Value) {
        send(JSONWriter.string(for: ["jsonrpc": "2.0", "method": .text(method), "params": params], pretty: false))
    }
}

extension Value {
    /// A dictionary's value for `key`; nil for anything else.
    fileprivate subscript(key: String) -> Value? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    /// A text; nil for anything else.
    fileprivate var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of a list; nil for anything else.
    fileprivate var listItems: [Value]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// A number that is a whole number, as an Int.
    fileprivate var wholeNumber: Int? {
        if case .number(let number) = self, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        return nil
    }
}
