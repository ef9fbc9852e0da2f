/// One line of the package-host protocol, either way (Docs/PackageProtocol.md, "Messages"). Both
/// sides read and write messages only through this type, so that each shape is written once.
public enum WireMessage: Equatable, Sendable {
    /// Relay asks the host: `{"id": N, "method": M, "params": {…}}`.
    case request(id: Int, method: String, params: ValueDictionary)
    /// The host answers request N: `{"id": N, "result": R}` or `{"id": N, "error": {…}}`.
    case answer(id: Int, WireOutcome)
    /// While serving request N, the host asks something of the run:
    /// `{"callback": K, "request": N, "method": M, "params": {…}}`.
    case callback(id: Int, request: Int, method: String, params: ValueDictionary)
    /// Relay answers callback K: `{"reply": K, "result": R}` or `{"reply": K, "error": {…}}`.
    case reply(id: Int, WireOutcome)
    /// Request N is F (0…1) done: `{"progress": F, "request": N, "label": T?}`; no answer.
    case progress(request: Int, fraction: Double, label: String?)

    /// Reads one line (without its line break). Every field is checked: a line that is not one
    /// of the shapes above is an error saying what is wrong with it.
    public init(line: some StringProtocol) throws(WireError) {
        try self.init(bytes: Array(line.utf8))
    }

    public init(bytes: [UInt8]) throws(WireError) {
        try self = bytes.withUnsafeBufferPointer { bytes in Result { () throws(WireError) in try WireMessage(bytes: bytes) } }.get()
    }

    /// The message one line of UTF-8 holds, its line break left out.
    public init(bytes: UnsafeBufferPointer<UInt8>) throws(WireError) {
        let object: ValueDictionary
        do {
            guard case .dictionary(let dictionary) = try JSONReader.value(in: bytes) else { throw WireError("a message must be a JSON object") }
            object = dictionary
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError("a message must be JSON: \(error)")
        }
        if object["id"] != nil {
            let id = try Self.number(object, "id")
            if object["method"] != nil {
                self = .request(id: id, method: try Self.text(object, "method"), params: try Self.fields(object, "params"))
            } else {
                self = .answer(id: id, try WireOutcome(object, failing: "the action failed"))
            }
        } else if object["callback"] != nil {
            self = .callback(
                id: try Self.number(object, "callback"), request: try Self.number(object, "request"),
                method: try Self.text(object, "method"), params: try Self.fields(object, "params"))
        } else if object["reply"] != nil {
            self = .reply(id: try Self.number(object, "reply"), try WireOutcome(object, failing: "the callback failed"))
        } else if case .number(let fraction)? = object["progress"] {
            let label: String? = if case .text(let label)? = object["label"] { label } else { nil }
            self = .progress(request: try Self.number(object, "request"), fraction: fraction, label: label)
        } else {
            throw WireError("a message must have an 'id', 'callback', 'reply' or 'progress'")
        }
    }

    /// The message as one line of JSON, with its line break.
    public var line: String { String(decoding: bytes, as: UTF8.self) }

    /// The message as it is sent: one line of UTF-8, its line break included.
    public var bytes: [UInt8] {
        let object: ValueDictionary = switch self {
        case .request(let id, let method, let params): ["id": .number(Double(id)), "method": .text(method), "params": .dictionary(params)]
        case .answer(let id, let outcome): outcome.fields(["id": .number(Double(id))])
        case .callback(let id, let request, let method, let params):
            ["callback": .number(Double(id)), "request": .number(Double(request)), "method": .text(method), "params": .dictionary(params)]
        case .reply(let id, let outcome): outcome.fields(["reply": .number(Double(id))])
        case .progress(let request, let fraction, let label):
            ["progress": .number(fraction), "request": .number(Double(request)), "label": label.map { .text($0) } ?? .nothing]
        }
        return JSONWriter.bytes(for: .dictionary(object), pretty: false, terminator: UInt8(ascii: "\n"))
    }

    /// A whole number that fits an `Int`: a request's or a callback's number.
    private static func number(_ object: ValueDictionary, _ key: String) throws(WireError) -> Int {
        guard case .number(let number)? = object[key], let whole = Int(exactly: number) else {
            throw WireError("'\(key)' must be a whole number")
        }
        return whole
    }

    private static func text(_ object: ValueDictionary, _ key: String) throws(WireError) -> String {
        guard case .text(let text)? = object[key] else { throw WireError("'\(key)' must be a string") }
        return text
    }

    /// An object's fields; absent is none.
    private static func fields(_ object: ValueDictionary, _ key: String) throws(WireError) -> ValueDictionary {
        switch object[key] {
        case nil, .nothing?: return [:]
        case .dictionary(let fields)?: return fields
        default: throw WireError("'\(key)' must be an object")
        }
    }
}

/// How a request or a callback ended: its result, or how it failed.
public enum WireOutcome: Equatable, Sendable {
    case result(Value)
    case failure(WireFailure)

    init(_ object: ValueDictionary, failing fallback: String) throws(WireError) {
        guard let error = object["error"], error != .nothing else {
            self = .result(object["result"] ?? .nothing)
            return
        }
        guard case .dictionary(let fields) = error else { throw WireError("'error' must be an object") }
        var refusal: WireFailure.Refusal?
        if case .dictionary(let refused)? = fields["refused"], case .text(let capability)? = refused["capability"],
            case .text(let path)? = refused["path"]
        {
            refusal = WireFailure.Refusal(capability: capability, path: path)
        }
        let message: String = if case .text(let message)? = fields["message"] { message } else { fallback }
        // Only a wait a retry can keep: finite and not negative.
        let retryAfter: Double? = if case .number(let seconds)? = fields["retry-after"], seconds.isFinite, seconds >= 0 { seconds } else { nil }
        self = .failure(
            WireFailure(message: message, cancelled: fields["cancelled"] == .boolean(true), refused: refusal, retryAfter: retryAfter))
    }

    func fields(_ head: ValueDictionary) -> ValueDictionary {
        var object = head
        switch self {
        case .result(let value): object["result"] = value
        case .failure(let failure):
            var error: ValueDictionary = ["message": .text(failure.message)]
            if failure.cancelled { error["cancelled"] = true }
            if let refused = failure.refused { error["refused"] = ["capability": .text(refused.capability), "path": .text(refused.path)] }
            if let seconds = failure.retryAfter { error["retry-after"] = .number(seconds) }
            object["error"] = .dictionary(error)
        }
        return object
    }
}

/// A failed request or callback: its message; whether a person cancelled (the run ends with exit
/// 3); when the system refused the host a file, which access it was; and the seconds the failure
/// asked to wait before the step is tried again (IntentError.retryAfter).
public struct WireFailure: Equatable, Sendable {
    public struct Refusal: Equatable, Sendable {
        public var capability: String
        public var path: String

        public init(capability: String, path: String) {
            self.capability = capability
            self.path = path
        }
    }

    public var message: String
    public var cancelled: Bool
    public var refused: Refusal?
    public var retryAfter: Double?

    public init(message: String, cancelled: Bool = false, refused: Refusal? = nil, retryAfter: Double? = nil) {
        self.message = message
        self.cancelled = cancelled
        self.refused = refused
        self.retryAfter = retryAfter
    }
}
