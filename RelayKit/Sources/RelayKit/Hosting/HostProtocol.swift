import Foundation

/// A message of the package-host protocol with a reply: its method's name and the shapes of its
/// `params` and its result, written once here and used by both sides (Docs/PackageProtocol.md).
public protocol HostMessage: Codable, Sendable {
    associatedtype Reply: Codable & Sendable
    static var method: String { get }
}

/// A request Relay sends a host.
public protocol HostRequest: HostMessage {}

/// A callback a host sends Relay while it serves a request: something an intent asks of the run.
public protocol HostCallback: HostMessage {}

/// The package-host protocol: its version, and every request and callback it has. Adding a
/// request (or something a hosted intent may ask of the run) is one type here and its two
/// handlers: one in the host (`HostServer`), one in Relay (`HostedPackage`).
public enum HostProtocol {
    /// The version this side speaks; both sides say theirs in `hello`.
    public static let version = 4

    /// How a host that cannot start because the package declares something wrongly (two cases
    /// with one display name) ends: this status, with the problem on one line of its standard
    /// error after `declarationErrorPrefix`, which Relay shows as the package's error.
    public static let declarationErrorStatus: Int32 = 65
    public static let declarationErrorPrefix = "relay-host: declaration: "

    /// Every request, in the order Docs/PackageProtocol.md lists them.
    public static let requests: [any HostRequest.Type] = [
        Hello.self, Manifest.self, Perform.self, Query.self, Property.self, Properties.self, Represent.self, IndexRecord.self,
        RunConverter.self, ValueQuery.self, FileProperty.self,
    ]

    /// Every callback, in the order Docs/PackageProtocol.md lists them.
    public static let callbacks: [any HostCallback.Type] = [
        Show.self, Ask.self, Choose.self, Confirm.self, Open.self, Convert.self, RunWorkflow.self, RegisterUndo.self,
    ]

    // MARK: - Requests

    /// The first request to every host: each side says which version it speaks and what it can
    /// answer (Relay its callbacks, the host its requests). Relay refuses a host of another version.
    public struct Hello: HostRequest, Equatable {
        public static let method = "hello"
        public typealias Reply = Hello
        public var protocolVersion: Int
        public var capabilities: [String]

        public init(protocolVersion: Int = HostProtocol.version, capabilities: [String]) {
            self.protocolVersion = protocolVersion
            self.capabilities = capabilities
        }

        enum CodingKeys: String, CodingKey {
            case protocolVersion = "protocol"
            case capabilities
        }
    }

    /// The package's manifest (`PackageManifest.json`), asked once per build of its host.
    public struct Manifest: HostRequest {
        public static let method = "manifest"
        public typealias Reply = Value
        public init() {}
    }

    /// What a request made for a step carries of the run: whether a person is at hand, the
    /// workflow's folder, and the run's scratch folder.
    public struct Run: Codable, Sendable, Equatable {
        public var mode: RunMode
        public var baseDirectory: String
        public var scratch: String

        public init(mode: RunMode, baseDirectory: String, scratch: String) {
            self.mode = mode
            self.baseDirectory = baseDirectory
            self.scratch = scratch
        }

        enum CodingKeys: String, CodingKey {
            case mode
            case baseDirectory = "base-directory"
            case scratch
        }
    }

    /// Performs an action: `arguments` are tagged values (`WireValue`), one per parameter in the
    /// manifest's order, nothing for one not given, already converted to the parameters' types.
    public struct Perform: HostRequest {
        public static let method = "perform"
        public var action: String
        public var arguments: [Value]
        public var run: Run

        public init(action: String, arguments: [Value], run: Run) {
            self.action = action
            self.arguments = arguments
            self.run = run
        }

        public struct Reply: Codable, Sendable {
            /// The action's output, tagged.
            public var value: Value
            /// A URL the action asks Relay to open.
            public var open: String?

            public init(value: Value, open: String? = nil) {
                self.value = value
                self.open = open
            }
        }
    }

    /// Entities of one type: by id, all, the suggested ones, by title, or those a request's
    /// conditions, sort and limit select.
    public struct Query: HostRequest {
        public static let method = "query"
        public typealias Reply = [Value]

        public enum Kind: String, Codable, Sendable {
            case ids, all, suggested, title, request
        }

        public var type: String
        public var kind: Kind
        public var ids: [String]?
        public var title: String?
        public var request: Request?

        public init(type: String, kind: Kind, ids: [String]? = nil, title: String? = nil, request: Request? = nil) {
            self.type = type
            self.kind = kind
            self.ids = ids
            self.title = title
            self.request = request
        }

        /// A `QueryRequest` as it crosses; its operands are tagged values.
        public struct Request: Codable, Sendable {
            public struct Condition: Codable, Sendable {
                public var property: String
                public var comparator: String
                public var operand: Value
                public var caseSensitive: Bool

                enum CodingKeys: String, CodingKey {
                    case property, comparator, operand
                    case caseSensitive = "case-sensitive"
                }
            }

            public struct Sort: Codable, Sendable {
                public var property: String
                public var ascending: Bool
            }

            public var conditions: [Condition]
            public var matchAll: Bool
            public var sort: [Sort]
            public var limit: Int?

            enum CodingKeys: String, CodingKey {
                case conditions
                case matchAll = "match-all"
                case sort, limit
            }

            public init(_ request: QueryRequest) {
                conditions = request.conditions.map {
                    Condition(property: $0.property, comparator: $0.comparator.name, operand: WireValue.encode($0.operand), caseSensitive: $0.caseSensitive)
                }
                matchAll = request.matchAll
                sort = request.sort.map { Sort(property: $0.property, ascending: $0.ascending) }
                limit = request.limit
            }

            /// The request, its operands decoded by `decode`.
            public func queryRequest(decode: (Value) async throws -> Value) async throws -> QueryRequest {
                var made: [FilterCondition] = []
                for condition in conditions {
                    guard let comparator = Comparator(rawValue: condition.comparator) else {
                        throw WireError("'\(condition.comparator)' is not a comparator")
                    }
                    made.append(
                        try FilterCondition(
                            property: condition.property, comparator: comparator, operand: try await decode(condition.operand),
                            caseSensitive: condition.caseSensitive))
                }
                return QueryRequest(
                    conditions: made, matchAll: matchAll, sort: sort.map { SortKey(property: $0.property, ascending: $0.ascending) }, limit: limit)
            }
        }
    }

    /// A deferred property of one entity.
    public struct Property: HostRequest {
        public static let method = "property"
        public typealias Reply = Value
        public var type: String
        public var id: String
        public var name: String

        public init(type: String, id: String, name: String) {
            self.type = type
            self.id = id
            self.name = name
        }
    }

    /// A deferred property marked `many`, of many entities in one call: one value per id, in order.
    public struct Properties: HostRequest {
        public static let method = "properties"
        public typealias Reply = [Value]
        public var type: String
        public var ids: [String]
        public var name: String

        public init(type: String, ids: [String], name: String) {
            self.type = type
            self.ids = ids
            self.name = name
        }
    }

    /// One of an entity's representations (`index` into its `transfer` list).
    public struct Represent: HostRequest {
        public static let method = "represent"
        public var type: String
        public var id: String
        public var index: Int

        public init(type: String, id: String, index: Int) {
            self.type = type
            self.id = id
            self.index = index
        }

        /// Bytes (base64), a tagged value or a tagged file, as the representation's kind says.
        public struct Reply: Codable, Sendable {
            public var data: String?
            public var value: Value?
            public var file: Value?

            public init(data: String? = nil, value: Value? = nil, file: Value? = nil) {
                self.data = data
                self.value = value
                self.file = file
            }
        }
    }

    /// What the search index keeps of an entity; nothing when the entity is not to be indexed.
    public struct IndexRecord: HostRequest {
        public static let method = "index-record"
        public typealias Reply = Record?
        public var type: String
        public var id: String

        public init(type: String, id: String) {
            self.type = type
            self.id = id
        }

        public struct Record: Codable, Sendable {
            public var title: String
            public var keywords: [String]
            public var content: String
            /// Seconds since 1970.
            public var modified: Double?

            public init(title: String, keywords: [String], content: String, modified: Double?) {
                self.title = title
                self.keywords = keywords
                self.content = content
                self.modified = modified
            }
        }
    }

    /// Runs one of the manifest's converters (`index`) on a tagged value; callbacks may come as
    /// during `perform`.
    public struct RunConverter: HostRequest {
        public static let method = "run-converter"
        public typealias Reply = Value
        public var index: Int
        public var value: Value
        public var run: Run

        public init(index: Int, value: Value, run: Run) {
            self.index = index
            self.value = value
            self.run = run
        }
    }

    /// The entity a value is, by one of its type's value queries (`index`); nothing when it is none.
    public struct ValueQuery: HostRequest {
        public static let method = "value-query"
        public typealias Reply = Value
        public var type: String
        public var index: Int
        public var value: Value
        public var run: Run

        public init(type: String, index: Int, value: Value, run: Run) {
            self.type = type
            self.index = index
            self.value = value
            self.run = run
        }
    }

    /// One of the manifest's file properties (`index`) of a file.
    public struct FileProperty: HostRequest {
        public static let method = "file-property"
        public typealias Reply = Value
        public var index: Int
        public var file: Value

        public init(index: Int, file: Value) {
            self.index = index
            self.file = file
        }
    }

    // MARK: - Callbacks

    /// Shows a value in the run's output.
    public struct Show: HostCallback {
        public static let method = "show"
        public typealias Reply = Empty
        public var value: Value

        public init(value: Value) { self.value = value }
    }

    /// Asks a question; the answer comes converted to `type` (a name as `relay describe` writes it).
    public struct Ask: HostCallback {
        public static let method = "ask"
        public typealias Reply = Value
        public var prompt: String
        public var type: String
        public var defaultValue: Value?
        public var key: String?

        public init(_ question: Question) {
            prompt = question.prompt
            type = question.type.name
            defaultValue = question.defaultValue.map(WireValue.encode)
            key = question.key
        }

        enum CodingKeys: String, CodingKey {
            case prompt, type, key
            case defaultValue = "default"
        }
    }

    /// Asks for one or several options (`ChoiceRequest`); the reply is the chosen indices.
    public struct Choose: HostCallback {
        public static let method = "choose"
        public typealias Reply = [Int]
        public var prompt: String
        public var options: [String]
        public var multiple: Bool
        /// The option Enter and `--yes` take.
        public var defaultIndex: Int?
        /// The options that destroy something.
        public var destructive: [Int]?
        public var key: String?
        /// What the run says when nobody can answer (`ChoiceRequest.unanswered`).
        public var unanswered: String?

        public init(_ request: ChoiceRequest) {
            key = request.key
            unanswered = request.unanswered
            prompt = request.prompt
            options = request.options
            multiple = request.allowsMultiple
            defaultIndex = request.defaultIndex
            destructive = request.destructive.isEmpty ? nil : request.destructive.sorted()
        }

        /// The request; a default or destructive index that is no option's is dropped.
        public var request: ChoiceRequest {
            ChoiceRequest(
                prompt: prompt, options: options, allowsMultiple: multiple, defaultIndex: defaultIndex, destructive: Set(destructive ?? []), key: key,
                unanswered: unanswered)
        }

        enum CodingKeys: String, CodingKey {
            case prompt, options, multiple, key, unanswered
            case defaultIndex = "default"
            case destructive
        }
    }

    /// Asks for a yes; a no is a failure with `cancelled`.
    public struct Confirm: HostCallback {
        public static let method = "confirm"
        public typealias Reply = Empty
        public var prompt: String
        public var key: String?

        public init(prompt: String, key: String? = nil) {
            self.prompt = prompt
            self.key = key
        }
    }

    /// Opens a URL as the run was told to (`--open-with`, `--dry-run` …).
    public struct Open: HostCallback {
        public static let method = "open"
        public typealias Reply = Empty
        public var url: String

        public init(url: String) { self.url = url }
    }

    /// Converts a tagged value to a form (`Representation.wire`) through Relay's conversions.
    public struct Convert: HostCallback {
        public static let method = "convert"
        public typealias Reply = Value
        public var value: Value
        public var to: Value

        public init(value: Value, to: Representation) {
            self.value = value
            self.to = to.wire
        }
    }

    /// Runs a workflow file with an input; the reply is its output.
    public struct RunWorkflow: HostCallback {
        public static let method = "run-workflow"
        public typealias Reply = Value
        public var path: String
        public var input: Value

        public init(path: String, input: Value) {
            self.path = path
            self.input = input
        }
    }

    /// Records, in the run's journal, the call that undoes what the intent did: an action of the
    /// package (without its prefix) and its arguments, a tagged dictionary by parameter name.
    public struct RegisterUndo: HostCallback {
        public static let method = "register-undo"
        public typealias Reply = Empty
        public var action: String
        public var arguments: Value

        public init(action: String, arguments: Value) {
            self.action = action
            self.arguments = arguments
        }
    }

    /// The reply of a callback that answers nothing: `null`.
    public struct Empty: Codable, Sendable, Equatable {
        public init() {}
        public init(from decoder: any Decoder) throws {}
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension RunMode: Codable {}

/// Handlers of a side's messages by method: the host's of Relay's requests, Relay's of a host's
/// callbacks. Each is registered with its message type, so it receives the message decoded and
/// its reply is encoded by that type.
public struct HostHandlers<Context: Sendable>: Sendable {
    private var handlers: [String: @Sendable (Value, Context) async throws -> Value] = [:]

    public init() {}

    /// Handles `Message`: `body` gets it and the context it is handled in.
    public mutating func on<Message: HostMessage>(_ type: Message.Type, _ body: @escaping @Sendable (Message, Context) async throws -> Message.Reply) {
        handlers[Message.method] = { params, context in
            try ValueCoding.encode(try await body(try ValueCoding.decode(Message.self, from: params), context))
        }
    }

    /// The methods handled, sorted: what `hello` says this side can answer.
    public var methods: [String] { handlers.keys.sorted() }

    /// The encoded reply to one message.
    public func handle(_ method: String, _ params: ValueDictionary, in context: Context) async throws -> Value {
        guard let handler = handlers[method] else { throw WireError("unknown method '\(method)'") }
        return try await handler(.dictionary(params), context)
    }
}

extension HostMessage {
    /// The message as a line's `params`.
    public var params: ValueDictionary {
        get throws(WireError) {
            guard case .dictionary(let params) = try ValueCoding.encode(self) else { throw WireError("'\(Self.method)' must encode as an object") }
            return params
        }
    }
}
