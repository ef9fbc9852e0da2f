import RelayKit

/// Actions that steer a run: show, wait, comment, fail, run another workflow, inspect values.
public enum ScriptingActions: IntentPackage {
    public static let name = "scripting"
    public static let intents: [any Intent.Type] = [
        GetDetails.self, GetType.self, Show.self, Wait.self, MakeNothing.self, Comment.self, Fail.self, RunWorkflow.self,
        RunShellScript.self,
    ]
}

/// `get-details`: a property of the input.
struct GetDetails: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.getitemname", title: "Get Name", parameters: ["WFInput": "input"], fixed: ["property": "name"]),
        ShortcutsMapping(
            "is.workflow.actions.geturlcomponent", title: "Get Component of URL", parameters: ["WFURL": "input", "WFURLComponent": "property"],
            values: [
                "WFURLComponent": [
                    "Scheme": "scheme", "User": "user", "Password": "password", "Host": "host", "Port": "port", "Path": "path",
                    "Query": "query", "Fragment": "fragment",
                ]
            ],
            defaults: ["WFURLComponent": "Scheme"]),
        ShortcutsMapping(
            "is.workflow.actions.properties.files", title: "Get Details of Files", parameters: ["WFInput": "input", "WFContentItemPropertyName": "property"],
            values: [
                "WFContentItemPropertyName": [
                    "Name": "name", "File Extension": "extension", "File Size": "size", "Creation Date": "created",
                    "Last Modified Date": "modified", "File Path": "path",
                ]
            ]),
    ]
    static let summary =
        "Gets a property of the input, as ${value.property} does: a file's name, size, width, height or pages, a list's count or first, a date's year, a dictionary's key. 'relay describe file' (or an entity type) lists them all."
    static let examples = [
        IntentExample("- date: 2026-11-24\n- get-details: month", output: "11"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "The value.") var value: Value
    @Parameter(primary: true, summary: "The property name.") var property: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        do {
            return .value(try await value.resolvedProperty(property))
        } catch let error as ValueAccessError {
            throw IntentError(error.message)
        }
    }
}

/// `get-type`: the name of the input's type.
struct GetType: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.getitemtype", title: "Get Type", parameters: ["WFInput": "input"]),
    ]
    static let summary = "Outputs the name of the input's type: text, number, boolean, date, url, list, dictionary or nothing."
    static let examples = [
        IntentExample("- number: 3\n- get-type", output: "number"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The value.") var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(value.type.name))
    }
}

/// `show`: prints a value during the run.
struct Show: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.showresult", title: "Show Result", parameters: ["Text": "value"]),
        // An alert without a Cancel button only shows its message.
        ShortcutsMapping(
            "is.workflow.actions.alert", title: "Show Alert", defaults: ["WFAlertActionTitle": "", "WFAlertActionMessage": "Do you want to continue?"],
            templates: ["value": "{WFAlertActionTitle}\n{WFAlertActionMessage}"], when: ["WFAlertActionCancelButtonShown": ["false"]]),
    ]
    static let summary = "Prints the input, or the value given, to standard output, formatted like a workflow's output; outputs nothing."
    static let examples = [
        IntentExample("- text: working…\n- show\n- text: done", output: "working…\ndone"),
        IntentExample("- number: 3\n  as: count\n- show: \"found ${count} files\"\n- nothing", output: "found 3 files"),
    ]
    static let output = OutputType.nothing

    @Parameter(primary: true, input: true, summary: "What to print: the input unless given.") var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        await context.show(value)
        return .nothing
    }
}

/// `wait`: pauses.
struct Wait: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.delay", title: "Wait", parameters: ["WFDelayTime": "seconds"], defaults: ["WFDelayTime": "1"]),
    ]
    static let summary = "Waits a number of seconds, then passes its input through."
    static let examples = [
        IntentExample("- wait: 0.1\n- text: later", output: "later"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "Passed through.") var value: Value
    @Parameter(primary: true, summary: "How long to wait, in seconds (at most a year).", check: Limits.durationProblem)
    var seconds: Double

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if let problem = Limits.durationProblem(seconds) { throw IntentError("'seconds': \(problem)") }
        try await Task.sleep(for: Limits.duration(seconds: seconds))
        return .value(value)
    }
}

/// `nothing`: outputs nothing.
struct MakeNothing: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.nothing", title: "Nothing"),
    ]
    static let name = "nothing"
    static let summary = "Outputs nothing, so the next step starts from an empty input."
    static let examples = [
        IntentExample("- text: ignored\n- nothing", output: ""),
    ]
    static let output = OutputType.nothing

    func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
}

/// `comment`: a note in the workflow.
struct Comment: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.comment", title: "Comment", parameters: ["WFCommentActionText": "text"]),
    ]
    static let summary = "Does nothing but hold a note; passes its input through."
    static let examples = [
        IntentExample("- comment: Nothing runs here; the previous output passes through.\n- text: hi", output: "hi"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "Passed through.") var value: Value
    @Parameter(primary: true, summary: "The note.") var text: String = ""

    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(value) }
}

/// `fail`: stops with an error.
struct Fail: Intent {
    static let summary = "Stops the run with an error with this message (an on-error modifier can catch it)."
    static let examples = [
        IntentExample("- fail: \"the backup folder is missing\"\n  on-error: continue\n- text: went on", output: "went on"),
    ]
    static let output = OutputType.nothing

    @Parameter(primary: true, summary: "The error message.") var message: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        throw IntentError(message)
    }
}

/// `run-workflow`: runs another workflow file.
struct RunWorkflow: Intent {
    static let summary = "Runs another workflow file (relative to this one) with an input, and outputs its output."
    static let examples = [
        IntentExample("- run-workflow: helpers/resize.yaml"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "The other workflow's input.") var input: Value
    @Parameter(primary: true, summary: "The workflow file's path.", access: .read) var path: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(try await context.runWorkflow(at: path.path, input: input))
    }
}
