import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// A run as a page of HTML (`relay runs show ID --html`, Docs/Runs.md, "A run as a page"): the
/// workflow as it was when it ran, drawn as nested blocks — steps, the branches of `if`, `match`
/// and `menu`, the bodies of loops, `on-error` — each coloured by what happened to it in this run,
/// with its time, attempts, output and error as the history kept them (secrets masked there).
/// Everything from the workflow, a file or a step is escaped: it is shown, never obeyed. No script.
enum RunPage {
    /// `back`: where a link to the page of all runs goes, on a served page, which loads itself
    /// again each second while the run goes on.
    static func html(_ run: RunHistory.Run, back: String? = nil) -> String {
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(back != nil && (run.status == .running || run.status == .queued) ? "<meta http-equiv=\"refresh\" content=\"1\">\n" : "")<title>Run \(run.id): \(escaped((run.workflow as NSString).lastPathComponent))</title>
            <style>\(style)</style></head><body>
            \(back.map { "<nav><a href=\"\(escaped($0))\">All workflows and runs</a></nav>\n" } ?? "")<header><h1>Run \(run.id) <span class="status \(run.status.rawValue)">\(run.status.rawValue)</span></h1>
            <dl>
            """
        func term(_ name: String, _ value: String?) {
            guard let value else { return }
            page += "<dt>\(name)</dt><dd>\(escaped(value))</dd>\n"
        }
        term("workflow", run.workflow)
        term("started", DateFormatting.iso8601(run.started))
        term("took", run.duration.map(RunsCommand.seconds))
        term("exit status", run.exitStatus.map { String($0) })
        term("started by", run.trigger.map { "\($0) (\($0 == "mcp" ? "an assistant's call, through MCP" : "relay serve"))" } ?? "a command line")
        term("input", run.input)
        if !run.grants.isEmpty { term("grants used", run.grants.joined(separator: ", ")) }
        page += "</dl></header>\n<main>\n"
        let records = recordsByPlace(run)
        if let content = run.content, let text = String(data: content, encoding: .utf8),
            let workflow = WorkflowParser.parse(SourceFile(path: run.workflow, text: text)).workflow
        {
            page += "<ol class=\"steps\">\n" + workflow.steps.map { step(step: $0, records: records) }.joined() + "</ol>\n"
        } else {
            // The workflow was not kept (too long) or no longer reads: its steps as recorded.
            page += "<p class=\"note\">The workflow's text was not kept with this run; its steps as recorded:</p>\n<ol class=\"steps\">\n"
            page += run.steps.map { item(name: $0.name, place: $0.place, record: $0, blocks: "") }.joined() + "</ol>\n"
        }
        if let error = run.error, !error.isEmpty {
            page += "<section class=\"error\"><h2>Error</h2><pre>\(escaped(error))</pre></section>\n"
        }
        return page + "</main></body></html>\n"
    }

    /// The history's records of the run's own steps, by line and column.
    private static func recordsByPlace(_ run: RunHistory.Run) -> [String: RunRecorder.StepRecord] {
        let name = (run.workflow as NSString).lastPathComponent
        var records: [String: RunRecorder.StepRecord] = [:]
        for record in run.steps {
            let parts = record.place.split(separator: ":")
            guard parts.count >= 3, (String(parts.dropLast(2).joined(separator: ":")) as NSString).lastPathComponent == name else { continue }
            records["\(parts[parts.count - 2]):\(parts[parts.count - 1])"] = record
        }
        return records
    }

    private static func step(step: Step, records: [String: RunRecorder.StepRecord]) -> String {
        let record = records["\(step.range.start.line):\(step.range.start.column)"]
        var blocks = ""
        for (label, body) in labelledBlocks(of: step) where !body.isEmpty {
            blocks += "<div class=\"block\"><span class=\"label\">\(escaped(label))</span>\n<ol>\n"
            blocks += body.map { self.step(step: $0, records: records) }.joined()
            blocks += "</ol></div>\n"
        }
        return item(name: step.keyword, place: "line \(step.range.start.line)", record: record, blocks: blocks)
    }

    /// One step: its status as a class (`not-run` when the history has no record of it), what
    /// it did, and its blocks inside.
    private static func item(name: String, place: String, record: RunRecorder.StepRecord?, blocks: String) -> String {
        let status = record?.status.rawValue ?? "not-run"
        var text = "<li class=\"step \(status)\"><div class=\"head\"><span class=\"name\">\(escaped(name))</span>"
        text += " <span class=\"place\">\(escaped(place))</span> <span class=\"status \(status)\">\(status.replacingOccurrences(of: "-", with: " "))</span>"
        if let record {
            var facts: [String] = []
            if record.runs > 1 { facts.append("\(record.runs) runs") }
            if record.skipped > 0 { facts.append("\(record.skipped) skipped") }
            if record.attempts > 1 { facts.append("\(record.attempts) attempts") }
            facts.append(RunsCommand.seconds(record.seconds))
            text += " <span class=\"facts\">\(escaped(facts.joined(separator: ", ")))</span></div>"
            if let type = record.outputType {
                text += "<div class=\"output\">→ \(escaped(type))\(record.preview.map { " " + escaped($0) } ?? "")</div>"
            }
            if let error = record.error { text += "<pre class=\"step-error\">\(escaped(error))</pre>" }
        } else {
            text += "</div>"
        }
        return text + blocks + "</li>\n"
    }

    /// A control step's blocks, each with the word that introduces it in the file.
    private static func labelledBlocks(of step: Step) -> [(String, [Step])] {
        var blocks: [(String, [Step])] = []
        switch step.kind {
        case .conditional(let conditional): blocks = [("then", conditional.then), ("else", conditional.otherwise ?? [])]
        case .repeatCount(let repeatCount): blocks = [("do", repeatCount.body)]
        case .forEach(let forEach): blocks = [("do", forEach.body)]
        case .menu(let menu): blocks = menu.options.map { ($0.label.text, $0.body) }
        case .match(let match): blocks = match.cases.map { ("case \($0.label.text)", $0.body) } + [("default", match.otherwise ?? [])]
        case .action, .set, .append, .stop: break
        }
        if case .steps(let handler) = step.modifiers.onError { blocks.append(("on-error", handler)) }
        return blocks
    }

    /// `text` for HTML: control characters made visible, then the HTML writer's escaping, and
    /// `'` too, so that no text can end an attribute whichever quote it uses.
    static func escaped(_ text: String) -> String {
        HTMLWriter.escape(TerminalText.visible(text, keepingLineBreaks: true)).replacingOccurrences(of: "'", with: "&#39;")
    }

    private static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}\
        h1{font-size:1.4em}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{color:#666}dd{margin:0}\
        ol{list-style:none;padding-left:0;margin:.3em 0}.block ol{padding-left:1.2em;border-left:2px solid #ddd}\
        .step{margin:.35em 0;padding:.35em .6em;border-radius:6px;border:1px solid #ddd;background:#fafafa}\
        .step.succeeded{border-color:#7bb661;background:#f1f8ec}.step.failed{border-color:#d9534f;background:#fdeeee}\
        .step.handled{border-color:#e0a030;background:#fdf6e8}.step.skipped,.step.not-run{opacity:.65}\
        .step.stopped{border-color:#888;background:#eee}.name{font-weight:600}.place,.facts{color:#666;font-size:.9em}\
        .status{font-size:.8em;padding:.05em .45em;border-radius:1em;background:#ddd}.status.succeeded{background:#cde8bf}\
        .status.failed{background:#f3c1bf}.status.handled{background:#f6dfa9}.label{font-size:.8em;color:#666}\
        .output{font-family:ui-monospace,monospace;font-size:.9em;color:#333}pre{white-space:pre-wrap;margin:.3em 0}\
        .step-error{color:#a02622}.error pre{background:#fdeeee;padding:.6em;border-radius:6px}
        """
}
