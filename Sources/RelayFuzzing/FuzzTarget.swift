/// A reader of bytes Relay does not control, and what must hold whatever the bytes are
/// (Docs/Reliability.md, "Fuzzing"). libFuzzer runs each (`Scripts/fuzz TARGET SECONDS`), and the
/// tests replay each one's seeds and kept crashers.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A server's response, text converted to a dictionary: written and read again, it is the same value.
    case json
    /// A package's message line, and the values in it: decoded, encoded and decoded again, the same.
    case wire
    /// The lines of an undo journal left by a killed run: a change read is written the same way.
    case journal
    /// RTF from a file or a package: read, written as RTF and read again, the same text.
    case rtf
    /// Markdown from a file: read into rich text, which RTF keeps.
    case markdown
    /// HTML from a server or a file: read into rich text, which RTF keeps.
    case html
    /// The text inside `${…}`: parsed and evaluated against values at their limits.
    case expression
    /// A workflow file: libyaml, Relay's node builder, the parser, the checker and the permission report.
    case workflow
    /// A package's URL template and the values put into it: a value cannot change the URL's host or shape.
    case urlTemplate = "url-template"
    /// A CSV file or text: read, written and read again, the same records.
    case csv
    /// A zip or tar archive: what libarchive reads, and the names Relay would extract.
    case archive
    /// A secret and the text it is shown in: masked, it is not there (Docs/Runs.md, "Secrets").
    case secretMask = "secret-mask"
    /// A schedule in a workflow's `on:`: its next times come later and later, at times it takes.
    case cron
    /// A webhook's query or form body: read, written and read again, the same pairs.
    case form
    /// A shortcut file: read, imported and written as a workflow that reads back as YAML.
    case shortcut
    /// An RSS or Atom feed: read into items that hold no more than the feed gave.
    case feed
    /// A text `get-dates` reads: the dates it finds are days of the years 0 to 9999, at most one for every eight bytes.
    case dates
    /// A signed shortcut file (an Apple Encrypted Archive, LZFSE, an Apple Archive): unwrapped,
    /// then read and imported as the shortcut target's files are.
    case signed
    /// A `calculate` formula with values in it: planned once, it gives what its text with the
    /// numbers written in gives.
    case formula
    /// An entity's resource name from an assistant (`relay://note/ID`): read and named again, the same.
    case resourceName = "resource-name"

    /// What did not hold for `bytes`, or nil when everything did. (A crash is the other finding.)
    public func check(_ bytes: [UInt8]) async -> String? {
        switch self {
        case .json: JSONHarness.check(bytes)
        case .wire: await WireHarness.check(bytes)
        case .journal: JournalHarness.check(bytes)
        case .rtf: RichTextHarness.checkRTF(bytes)
        case .markdown: RichTextHarness.checkMarkdown(bytes)
        case .html: RichTextHarness.checkHTML(bytes)
        case .expression: await ExpressionHarness.check(bytes)
        case .workflow: WorkflowHarness.check(bytes)
        case .urlTemplate: URLTemplateHarness.check(bytes)
        case .csv: CSVHarness.check(bytes)
        case .archive: ArchiveHarness.check(bytes)
        case .secretMask: SecretMaskHarness.check(bytes)
        case .cron: CronHarness.check(bytes)
        case .form: FormHarness.check(bytes)
        case .shortcut: ShortcutHarness.check(bytes)
        case .feed: FeedHarness.check(bytes)
        case .dates: DateHarness.check(bytes)
        case .signed: ShortcutHarness.check(bytes)
        case .formula: FormulaHarness.check(bytes)
        case .resourceName: ResourceNameHarness.check(bytes)
        }
    }
}
