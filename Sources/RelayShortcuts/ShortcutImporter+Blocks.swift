extension ImportState {
    /// The control step for a block: If, Repeat, Repeat with Each, Choose from Menu.
    mutating func block(_ parts: [(opener: ShortcutAction, body: [ShortcutNode])], end: ShortcutAction) throws(ShortcutError) -> [WrittenStep] {
        let opener = parts[0].opener
        let number = opener.number
        var step: WrittenStep
        var after: [WrittenStep] = []
        switch opener.identifier {
        case "is.workflow.actions.conditional":
            guard parts.count <= 2 else { throw ShortcutError(action: parts[2].opener.number, "an If with a second Otherwise") }
            var conditions = ShortcutConditions(values: ShortcutValues(names: names, action: number))
            let condition = try conditions.condition(of: opener.parameters)
            names = conditions.values.names
            step = WrittenStep(action: number, key: "if", value: .variable(condition))
            step.set("then", .steps(steps(of: parts[0].body, root: false)))
            if parts.count == 2 { step.set("else", .steps(steps(of: parts[1].body, root: false))) }
        case "is.workflow.actions.repeat.count":
            guard parts.count == 1 else { throw ShortcutError(action: parts[1].opener.number, "a Repeat with a middle") }
            var count = WrittenValue.number("1")
            if let given = opener.parameters["WFRepeatCount"] { count = try written(given, action: number) }
            step = WrittenStep(action: number, key: "repeat", value: count)
            step.set("do", .steps(steps(of: parts[0].body, root: false)))
        case "is.workflow.actions.repeat.each":
            guard parts.count == 1 else { throw ShortcutError(action: parts[1].opener.number, "a Repeat with Each with a middle") }
            var items = WrittenValue.variable(ShortcutNames.previous)
            if let given = opener.parameters["WFInput"] { items = try written(given, action: number) }
            step = WrittenStep(action: number, key: "for-each", value: items)
            step.set("do", .steps(steps(of: parts[0].body, root: false)))
            // A for-each's `as:` names its item; what the loop gives is stored by a `set` after it.
            if let name = stored(end) {
                var keep = WrittenStep(action: 0, key: "set")
                keep.value = .dictionary([WrittenEntry(key: name, value: .variable("previous"))])
                after.append(keep)
            }
        case "is.workflow.actions.choosefrommenu":
            var prompt = WrittenValue.text("")
            if let given = opener.parameters["WFMenuPrompt"] { prompt = try written(given, action: number) }
            step = WrittenStep(action: number, key: "menu", value: prompt)
            var options: [(title: String, steps: [WrittenStep])] = []
            // Items the opener lists, in order: a middle without a title of its own takes its place's.
            var listed: [String] = []
            if case .list(let items)? = opener.parameters["WFMenuItems"] {
                for item in items { listed.append((try? ShortcutValues(names: names, action: number).plainKey(item["WFValue"] ?? item)) ?? "") }
            }
            for (place, part) in parts.dropFirst().enumerated() {
                var title = try ShortcutValues(names: names, action: part.opener.number)
                    .plainKey(part.opener.parameters["WFMenuItemTitle"] ?? part.opener.parameters["WFMenuItemAttributedTitle"])
                if title.isEmpty, place < listed.count { title = listed[place] }
                guard !options.contains(where: { $0.title == title }) else {
                    throw ShortcutError(action: part.opener.number, "a menu with two items called '\(title)'")
                }
                options.append((title, steps(of: part.body, root: false)))
            }
            guard !options.isEmpty else { throw ShortcutError(action: number, "a menu with no items") }
            step.set("options", .options(options))
        default:
            throw ShortcutError(action: number, ShortcutsCatalog.reason(for: opener.identifier))
        }
        if step.key != "for-each", let name = stored(end) { step.set("as", .value(.text(name))) }
        noteInput(step)
        return [step] + after
    }
}
