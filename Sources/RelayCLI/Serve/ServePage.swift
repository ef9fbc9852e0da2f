import Foundation
import RelayKit
import RelayLanguage

/// The page `relay serve` shows at `/` (Docs/Automations.md, "The page"): every served workflow
/// with its triggers, their next times, its last run and a "Run now" button, then the runs,
/// filtered as `relay runs` filters them. Plain HTML and CSS, no script; everything from a
/// workflow, a file or a run is escaped.
enum ServePage {
    struct Filter {
        var workflow: String?
        var status: String?
        var trigger: String?
    }

    static func page(
        served: [ServedWorkflow], runs: [RunHistory.Run], lastRuns: [RunHistory.Run], started: Date, now: Date, flags: [String], formToken: String,
        filter: Filter, historyReadable: Bool, troubles: [String: [String]] = [:]
    ) -> String {
        var html = head("Relay automations", refresh: 10)
        html += "<header><h1>Relay automations</h1><p class=\"facts\">Serving since \(e(DateFormatting.iso8601(started)))"
        html += flags.isEmpty ? ". No --allow flags: each workflow runs with its own grants." : ". Every workflow is also granted: <code>\(e(flags.joined(separator: " ")))</code>."
        html += "</p></header>\n<main>\n<h2>Workflows</h2>\n"
        if served.isEmpty { html += "<p class=\"note\">No workflow files are served.</p>\n" }
        html += "<ul class=\"workflows\">\n"
        for (index, workflow) in served.enumerated() {
            let state: (word: String, css: String) =
                workflow.problem != nil ? ("does not check", "failed") : workflow.triggers.isEmpty ? ("no triggers", "not-run")
                : !workflow.needs.isEmpty ? ("needs grants", "denied") : ("served", "succeeded")
            html += "<li class=\"workflow \(state.css)\"><div class=\"name\" title=\"\(e(workflow.file))\">\(e((workflow.file as NSString).lastPathComponent))"
            html += " <span class=\"status \(state.css)\">\(state.word)</span></div>\n"
            html += "<div class=\"place\">\(e(workflow.file))</div>\n"
            if let problem = workflow.problem { html += "<pre class=\"step-error\">\(e(problem))</pre>\n" }
            if !workflow.needs.isEmpty { html += "<p class=\"step-error why\">Not run: it needs \(e(ServeCommand.needs(of: workflow))).</p>\n" }
            for trouble in troubles[workflow.file] ?? [] { html += "<p class=\"step-error trouble\">\(e(trouble))</p>\n" }
            if !workflow.triggers.isEmpty {
                html += "<ul class=\"triggers\">"
                for trigger in workflow.triggers {
                    let next = workflow.isArmed ? trigger.nextFire(after: now, started: started).map { " — next \(DateFormatting.iso8601($0))" } ?? "" : ""
                    html += "<li>\(e(trigger.summary + next))\(trigger.concurrency == .queue ? "" : " (concurrency: \(trigger.concurrency.rawValue))")</li>"
                }
                html += "</ul>\n"
            }
            if let last = lastRuns.first(where: { $0.workflow == workflow.file }) {
                html += "<p class=\"facts\">Last run: <a href=\"/runs/\(last.id)\">run \(last.id)</a> <span class=\"status \(last.status.rawValue)\">\(last.status.rawValue)</span> \(e(DateFormatting.iso8601(last.started)))</p>\n"
            }
            if workflow.isArmed, !workflow.runsNow {
                html += "<p class=\"facts\">Run now is not offered: its runs are given an input (a webhook's body, a watched folder's file); run it by hand with <code>relay run</code>.</p>\n"
            }
            if workflow.runsNow {
                html += """
                    <form method="post" action="/workflows/\(index)/run"><input type="hidden" name="form" value="\(e(formToken))">\
                    <button type="submit">Run now</button></form>

                    """
            }
            html += "</li>\n"
        }
        html += "</ul>\n<h2>Runs</h2>\n"
        html += "<form method=\"get\" action=\"/\" class=\"filter\"><label>Workflow <select name=\"workflow\"><option value=\"\">all</option>"
        for workflow in served {
            html += "<option value=\"\(e(workflow.file))\"\(filter.workflow == workflow.file ? " selected" : "")>\(e((workflow.file as NSString).lastPathComponent))</option>"
        }
        html += "</select></label> <label>Status <select name=\"status\"><option value=\"\">all</option>"
        for status in RunHistory.Status.allCases {
            html += "<option\(filter.status == status.rawValue ? " selected" : "")>\(status.rawValue)</option>"
        }
        html += "</select></label> <label>Trigger <select name=\"trigger\"><option value=\"\">all</option>"
        for trigger in ServedWorkflow.startedBy {
            html += "<option\(filter.trigger == trigger ? " selected" : "")>\(trigger)</option>"
        }
        html += "</select></label> <button type=\"submit\">Show</button></form>\n"
        if !historyReadable {
            html += "<p class=\"step-error\">The run history could not be read.</p>\n"
        } else if runs.isEmpty {
            html += "<p class=\"note\">No runs\(filter.workflow == nil && filter.status == nil && filter.trigger == nil ? " yet" : " match").</p>\n"
        } else {
            html += "<table class=\"runs\"><thead><tr><th>Run</th><th>Workflow</th><th>Status</th><th>Started by</th><th>Started</th><th>Took</th></tr></thead><tbody>\n"
            for run in runs {
                html += "<tr class=\"\(run.status.rawValue)\"><td><a href=\"/runs/\(run.id)\">\(run.id)</a></td><td title=\"\(e(run.workflow))\">\(e((run.workflow as NSString).lastPathComponent))</td>"
                html += "<td><span class=\"status \(run.status.rawValue)\">\(run.status.rawValue)</span></td><td>\(e(run.trigger ?? "command line"))</td>"
                html += "<td>\(e(DateFormatting.iso8601(run.started)))</td><td>\(e(run.duration.map(RunsCommand.seconds) ?? ""))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        return html + "</main></body></html>\n"
    }

    /// The form that asks for the page's token.
    static func login() -> String {
        head("Relay automations: token", refresh: nil) + """
            <main><h1>Relay automations</h1><p>This server asks for its token (the text in its --token-file).</p>
            <form method="post" action="/login"><label>Token <input type="password" name="token" autocomplete="current-password"></label> \
            <button type="submit">Open</button></form></main></body></html>

            """
    }

    /// A page that says only `text`, with a way back.
    static func missing(_ text: String) -> String {
        head("Relay automations", refresh: nil) + "<main><p>\(e(text))</p><p><a href=\"/\">All workflows and runs</a></p></main></body></html>\n"
    }

    private static func head(_ title: String, refresh: Int?) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(refresh.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">\n" } ?? "")<title>\(e(title))</title>
        <style>\(style)</style></head><body>

        """
    }

    private static func e(_ text: String) -> String { RunPage.escaped(text) }

    private static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:64em;padding:0 1em;color:#222}\
        h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}ul.workflows{list-style:none;padding:0}\
        .workflow{margin:.5em 0;padding:.5em .8em;border-radius:6px;border:1px solid #ddd;background:#fafafa}\
        .workflow.succeeded{border-color:#7bb661}.workflow.failed,.workflow.denied{border-color:#d9534f;background:#fdeeee}\
        .name{font-weight:600}.place,.facts,.note{color:#666;font-size:.9em}.triggers{margin:.3em 0;padding-left:1.2em}\
        .status{font-size:.8em;padding:.05em .45em;border-radius:1em;background:#ddd}.status.succeeded{background:#cde8bf}\
        .status.failed,.status.denied,.status.interrupted{background:#f3c1bf}.status.running,.status.queued{background:#cfe0f6}\
        .step-error{color:#a02622}pre{white-space:pre-wrap;margin:.3em 0}form{margin:.4em 0}\
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid #eee}\
        th{color:#666;font-weight:normal}
        """
}
