import RelayKit

/// A parsed workflow file (Docs/Language.md, "A workflow file"), before names are resolved.
public struct Workflow: Sendable {
    public var file: SourceFile
    public var name: String?
    public var summary: String?
    public var input: InputDeclaration?
    public var output: TypeAnnotation?
    public var packages: [Name]
    public var variables: [Assignment]
    /// The variables of `variables:` written with a type (`{type, default, description}`), by
    /// name: what `--set`, a webhook's query or an assistant's call gives them is held to the type.
    public var variableTypes: [String: InputDeclaration] = [:]
    public var steps: [Step]
    /// `timeout:` at the top: the most seconds the whole run may take.
    public var timeout: Double? = nil
    /// `permissions:`: what the workflow expects to touch, by capability; nil without the block.
    public var permissions: [Capability: [Name]]? = nil
    /// `secrets:`: the secrets the workflow reads as `${secrets.NAME}` (Docs/Runs.md, "Secrets").
    public var secrets: [Name] = []
    /// `permissions: { secrets: { NAME: [host, …] } }`: the hosts each pinned secret may be sent to.
    public var secretPins: [SecretPin] = []
    /// `on:`: what starts a run of it under `relay serve` (Docs/Automations.md).
    public var triggers: [Trigger] = []
    /// The range of the `steps:` key, for diagnostics about the workflow as a whole.
    public var range: SourceRange
}

/// A name written in the file, with where.
public struct Name: Sendable {
    public var text: String
    public var range: SourceRange
}

/// `input:` at the top of a workflow.
public struct InputDeclaration: Sendable {
    public var type: TypeAnnotation
    public var defaultValue: Template?
    public var summary: String?
}

/// A type name written in the file.
public struct TypeAnnotation: Sendable {
    public var type: ValueType
    public var range: SourceRange
}

/// `NAME: VALUE` in `set`, `append` or `variables`.
public struct Assignment: Sendable {
    public var name: Name
    public var value: Template
}

/// A secret pinned in `permissions:`: what is made from it may be sent to its hosts, written in
/// its folders and handed to its programs, and nowhere else (Docs/Runs.md, "Secrets").
public struct SecretPin: Sendable {
    public var name: Name
    /// `net:` (or the short form's list): the hosts.
    public var hosts: [Name]
    /// `write:`: the folders and files, as written.
    public var folders: [Name] = []
    /// `run:`: the programs, by name.
    public var programs: [Name] = []

    public init(name: Name, hosts: [Name], folders: [Name] = [], programs: [Name] = []) {
        self.name = name
        self.hosts = hosts
        self.folders = folders
        self.programs = programs
    }
}
