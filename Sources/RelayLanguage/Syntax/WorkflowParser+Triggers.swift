import Foundation
import RelayKit

extension WorkflowParser {
    /// `on:` at the top: a list of triggers, each a mapping with one of `schedule:`, `watch:` or
    /// `webhook:` and its options (Docs/Automations.md).
    mutating func triggers(_ node: YAMLNode) -> [Trigger] {
        let example = "on: [ { schedule: \"30 7 * * 1-5\" } ]"
        let entries: [YAMLNode]
        switch node.kind {
        case .sequence(let items): entries = items
        case .mapping: entries = [node]
        case .scalar:
            report("'on' takes a list of triggers, each with schedule:, watch: or webhook:, e.g. \(example)", at: node.range)
            return []
        }
        return entries.compactMap { trigger($0) }
    }

    private mutating func trigger(_ node: YAMLNode) -> Trigger? {
        guard case .mapping(let pairs) = node.kind else {
            report("a trigger is a mapping with schedule:, watch: or webhook:, not \(node.shapeDescription)", at: node.range)
            return nil
        }
        var values: [String: YAMLPair] = [:]
        for pair in pairs {
            guard let key = pair.key.scalarText else {
                report("a trigger's keys are words, not \(pair.key.shapeDescription)", at: pair.key.range)
                continue
            }
            guard Trigger.keys.contains(key) else {
                let hint = key == "every" || key == "cron" ? "; a schedule is written schedule: { every: 10m } or schedule: \"0 7 * * *\"" : ""
                report(
                    "unknown key '\(key)' in a trigger\(Suggestions.didYouMean(key, in: Trigger.keys))\(hint)", at: pair.key.range,
                    notes: ["note: a trigger takes \(Trigger.keys.joined(separator: ", "))"])
                continue
            }
            guard values[key] == nil else {
                report("duplicate key '\(key)'", at: pair.key.range)
                continue
            }
            values[key] = pair
        }
        let kinds = ["schedule", "watch", "webhook"].filter { values[$0] != nil }
        guard kinds.count == 1, let kindKey = kinds.first, let kindPair = values[kindKey] else {
            report(
                kinds.isEmpty
                    ? "a trigger needs one of schedule:, watch: or webhook:"
                    : "a trigger has one of schedule:, watch: or webhook:, not \(kinds.joined(separator: " and ")); give each its own entry",
                at: node.range)
            return nil
        }
        // Options that belong to another kind.
        let owners = ["glob": "watch", "events": "watch", "wait": "webhook", "limit": "webhook", "catch-up": "schedule"]
        for (option, owner) in owners.sorted(by: { $0.key < $1.key }) where owner != kindKey {
            if let pair = values[option] { report("'\(option)' belongs to a \(owner) trigger, not a \(kindKey) one", at: pair.key.range) }
        }
        let kind: Trigger.Kind?
        switch kindKey {
        case "schedule": kind = schedule(kindPair.value).map { .schedule($0) }
        case "watch": kind = watch(kindPair.value, glob: values["glob"]?.value, events: values["events"]?.value).map { .watch($0) }
        default: kind = webhook(kindPair.value, wait: values["wait"]?.value, limit: values["limit"]?.value).map { .webhook($0) }
        }
        var trigger = kind.map { Trigger(kind: $0, range: kindPair.key.range) }
        if let pair = values["concurrency"] {
            let cases = Trigger.Concurrency.allCases.map(\.rawValue)
            if let text = pair.value.scalarText, let concurrency = Trigger.Concurrency(rawValue: text) {
                trigger?.concurrency = concurrency
            } else {
                let written = pair.value.scalarText ?? ""
                report(
                    "'concurrency' takes \(cases.joined(separator: ", ")), not \(pair.value.scalarText.map { "'\($0)'" } ?? pair.value.shapeDescription)\(Suggestions.didYouMean(written, in: cases))",
                    at: pair.value.range)
            }
        }
        if let pair = values["catch-up"], kindKey == "schedule" {
            if case .boolean(let flag) = ScalarResolver.resolve(pair.value) {
                trigger?.catchUp = flag
            } else {
                report("'catch-up' takes true or false", at: pair.value.range)
            }
        }
        return trigger
    }

    private mutating func schedule(_ node: YAMLNode) -> Trigger.Schedule? {
        if case .mapping(let pairs) = node.kind {
            let others = pairs.filter { $0.key.scalarText != "every" }
            for other in others {
                let key = other.key.scalarText ?? ""
                report(
                    "unknown key '\(key)' in a schedule, which is a cron text (\"30 7 * * 1-5\", @daily) or { every: 10m }\(Suggestions.didYouMean(key, in: ["every"]))",
                    at: other.key.range)
            }
            guard others.isEmpty, pairs.count == 1, let pair = pairs.first else {
                if pairs.isEmpty { report("a schedule is a cron text (\"30 7 * * 1-5\", @daily) or { every: 10m }", at: node.range) }
                return nil
            }
            guard let text = pair.value.scalarText, let seconds = Trigger.interval(text), seconds > 0 else {
                report(
                    "'every' takes a time greater than 0 with its unit — 30s, 10m, 2h, 1d — not \(pair.value.scalarText.map { "'\($0)'" } ?? pair.value.shapeDescription)",
                    at: pair.value.range)
                return nil
            }
            if let problem = Limits.durationProblem(seconds) {
                report("'every': \(problem)", at: pair.value.range)
                return nil
            }
            return .every(seconds)
        }
        guard let text = node.scalarText else {
            report("a schedule is a cron text (\"30 7 * * 1-5\", @daily) or { every: 10m }, not \(node.shapeDescription)", at: node.range)
            return nil
        }
        do {
            let cron = try CronSchedule(text)
            if cron.next(after: Date(), in: .current) == nil {
                report("the schedule '\(Excerpt.start(of: text))' never comes: no day matches it", at: node.range)
                return nil
            }
            return .cron(cron)
        } catch {
            report("schedule '\(Excerpt.start(of: text))': \(error.message)", at: node.range)
            return nil
        }
    }

    private mutating func watch(_ node: YAMLNode, glob: YAMLNode?, events: YAMLNode?) -> Trigger.Watch? {
        guard let written = node.scalarText, !written.isEmpty, !written.contains("\u{0}") else {
            report("'watch' takes a folder, e.g. watch: ~/Downloads", at: node.range)
            return nil
        }
        let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent()
        let path = URL(fileURLWithPath: HomeFolder.expandingTilde(in: written), relativeTo: folder).standardizedFileURL.path
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            report("'watch': there is no folder '\(Excerpt.start(of: written))'", at: node.range)
            return nil
        }
        if !isFolder.boolValue {
            report("'watch' takes a folder, and '\(Excerpt.start(of: written))' is a file; watch its folder with glob: \"\((path as NSString).lastPathComponent)\"", at: node.range)
            return nil
        }
        var watch = Trigger.Watch(folder: Name(text: written, range: node.range), path: path, glob: nil, events: [.created])
        if let glob {
            if let pattern = glob.scalarText, !pattern.isEmpty, !pattern.contains("/") {
                watch.glob = pattern
            } else {
                report("'glob' takes a pattern for the files' names, such as \"*.pdf\" (no '/')", at: glob.range)
            }
        }
        if let events {
            let cases = Trigger.WatchEvent.allCases.map(\.rawValue)
            var chosen = Set<Trigger.WatchEvent>()
            for item in Self.listItems(events) ?? [events] {
                if let text = item.scalarText, let event = Trigger.WatchEvent(rawValue: text) {
                    chosen.insert(event)
                } else {
                    let word = item.scalarText ?? ""
                    report("'events' takes \(cases.joined(separator: ", ")), not \(item.scalarText.map { "'\($0)'" } ?? item.shapeDescription)\(Suggestions.didYouMean(word, in: cases))", at: item.range)
                }
            }
            if !chosen.isEmpty { watch.events = chosen }
        }
        return watch
    }

    private mutating func webhook(_ node: YAMLNode, wait: YAMLNode?, limit: YAMLNode?) -> Trigger.Webhook? {
        guard let name = node.scalarText, Trigger.isWebhookName(name) else {
            report(
                "a webhook's name is a word of letters, digits, '-' and '_' (it is the end of /hooks/NAME), not \(node.scalarText.map { "'\(Excerpt.start(of: $0))'" } ?? node.shapeDescription)",
                at: node.range)
            return nil
        }
        var hook = Trigger.Webhook(name: Name(text: name, range: node.range), wait: 10, limit: 60)
        if let wait {
            if case .number(let seconds) = ScalarResolver.resolve(wait), seconds >= 0, seconds <= 300 {
                hook.wait = seconds
            } else {
                report("'wait' takes a number of seconds from 0 to 300", at: wait.range)
            }
        }
        if let limit {
            if case .number(let count) = ScalarResolver.resolve(limit), count >= 1, count <= 10_000, count == count.rounded() {
                hook.limit = Int(count)
            } else {
                report("'limit' takes a whole number of calls a minute from 1 to 10000", at: limit.range)
            }
        }
        return hook
    }
}
