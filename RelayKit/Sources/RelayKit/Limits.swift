/// The bounds Relay keeps whatever a workflow, a file or a server gives it, so that no input can
/// crash a run, exhaust memory or run without end. Each is checked where the input is read, with
/// a message that names the limit; Docs/Reliability.md lists them with the reasons.
public enum Limits {
    /// The most options a person is asked to choose among (`requestDisambiguation`, a title that
    /// several entities match, a package's `requestChoice`): more is no question a person can
    /// answer, and the step fails asking for fewer.
    public static let choiceOptions = 1_000

    /// How deeply an expression inside `${ }` or a `calculate` formula may nest: parentheses,
    /// operators in a row, `not` and `-` prefixes, `.property` and `[index]` suffixes together.
    public static let expressionDepth = 200

    /// How deeply blocks of steps (`then:`, `do:`, `on-error:` …) may nest inside each other.
    public static let blockDepth = 64

    /// How deeply lists and dictionaries may nest inside a value a workflow makes (`${[x]}` in a
    /// loop, `set-value` of a dictionary into itself): as deep as JSON that Relay reads may nest.
    /// Walking a value deeper than this would exhaust the stack.
    public static let valueDepth = 512

    /// The largest text a run holds as a value (256 MiB of UTF-8), and the most items a list or
    /// keys a dictionary may have (10 million): a loop that doubles a text or grows a list stops
    /// with a located error naming the bound, not an abort or the machine's memory. A file may be
    /// larger: files are streamed, not held (Docs/Reliability.md, "Big files").
    public static let textBytes = 256 << 20
    public static let collectionItems = 10_000_000

    /// The most values one CSV or JSON text a run reads may hold (4 million fields, or numbers,
    /// texts, lists and objects): each becomes a value of its own, of some tens of bytes, so 25 MB
    /// of empty CSV fields took 2.6 GB and 24 MB of JSON 845 MB.
    public static let readValues = 4_000_000

    /// How many parts a dotted key path (`user.address.city`) may have.
    public static let keyPathParts = 200

    /// How deeply a Markdown, HTML or RTF document's blocks (quotes, lists) may nest.
    public static let documentDepth = 100

    /// The most pixels an image Relay decodes may have (100 million: 400 MB decoded), and the
    /// most on either side; a file that claims more is refused before memory is taken for it.
    public static let imagePixels = 100_000_000
    public static let imageSide = 32_767

    /// The largest workflow file Relay reads (10 MB).
    public static let workflowBytes = 10_000_000
    /// The largest message `relay lsp` reads from an editor (64 MiB: a workflow of 10 MB, every
    /// character of it escaped in JSON); a larger one is skipped unread, and said so.
    public static let editorMessage = 64 << 20

    /// The largest shortcut file `relay import` reads (32 MiB: a shortcut with pictures in it is a
    /// few megabytes), how deeply its property list may nest (the shortcuts people share nest
    /// some tens of levels; the property list reader recurses, so deeper would exhaust the stack),
    /// and how many actions it may have.
    public static let shortcutBytes = 32 << 20
    public static let shortcutDepth = 256
    public static let shortcutActions = 50_000
    /// The most entries the archive inside a signed shortcut file may hold (it holds one or two).
    public static let shortcutArchiveEntries = 10_000
    /// The most values a shortcut's property list may hold, an object a binary list refers to
    /// from several places counted each time (a 300-byte file of lists holding each other twice
    /// over is a billion values once read).
    public static let shortcutValues = 2_000_000

    /// The longest `timeout:` or `wait:` in seconds (a year): longer is surely a mistake, and
    /// beyond it seconds stop converting exactly to the clock's integer nanoseconds.
    public static let longestDuration: Double = 366 * 24 * 3600

    /// How many workflows one run may start with `run-workflow`, nested or one after another.
    public static let workflowCalls = 10_000

    /// How many `parallel` for-each iterations one run keeps going at once, nested loops and
    /// nested workflows together; past it, loops run their items one after another.
    public static let parallelBranches = 64

    /// A response up to this many bytes (16 MiB) is kept in memory, as text, JSON or bytes; a longer
    /// one goes straight to a file in the scratch folder as it arrives, so memory stays bounded.
    public static let responseInMemory = 16 << 20

    /// What a response's bytes may take in memory as they arrive (1 MiB): past it they go on to a
    /// file, read back when the whole response is no longer than `responseInMemory`. A long
    /// download, or a server that never stops, holds no more than this.
    public static let responseArriving = 1 << 20

    /// The longest response Relay accepts (16 GiB); a server that sends data forever is stopped
    /// here, or earlier by the step's timeout.
    public static let responseBytes: UInt64 = 16 << 30

    /// The most standard output a program a step starts may write (`run-shell-script`): 256 MiB,
    /// held in memory as the step's output.
    public static let programOutput = 256 << 20
    /// How much of a program's standard error is kept for its step's error: the last 64 KiB.
    public static let programErrors = 64 << 10
    /// The most processes a program a step starts, or a package's host, may have running at once,
    /// itself and all it starts (where the kernel gives it namespaces of its own, and it does not
    /// run as root): a fork bomb stops here.
    public static let processesPerTree = 512

    /// The most files and folders a run may keep in its scratch folder, and how deeply its folders
    /// may nest there (its bytes are bounded by `$RELAY_SCRATCH_QUOTA`): a script that makes
    /// millions of empty files, or folders within folders, is stopped as one that fills the disk.
    public static let scratchEntries = 100_000
    public static let scratchDepth = 64

    /// What is wrong with `seconds` as a length of time to wait or to allow, or nil: it must be a
    /// finite number from 0 to `longestDuration`.
    public static func durationProblem(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0 else {
            return "a number of seconds from 0 to \(Int(longestDuration)) is needed, not \(NumberFormatting.text(seconds))"
        }
        guard seconds <= longestDuration else {
            return "at most \(Int(longestDuration)) seconds (a year) is allowed, not \(NumberFormatting.text(seconds))"
        }
        return nil
    }

    /// `seconds` as a `Duration`, clamped to 0…`longestDuration` (NaN is 0): never a trap.
    public static func duration(seconds: Double) -> Duration {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), longestDuration)
        return .nanoseconds(Int64((clamped * 1_000_000_000).rounded()))
    }

    /// The message for an expression nested past `expressionDepth`.
    public static var expressionDepthMessage: String {
        "the expression is nested more than \(expressionDepth) levels deep (parentheses, operators in a row); "
            + "split it into steps or variables"
    }
}
