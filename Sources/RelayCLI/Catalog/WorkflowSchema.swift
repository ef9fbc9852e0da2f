import RelayKit
import RelayLanguage

/// The JSON Schema of the workflow language (draft-07), generated from the registry, for editors:
/// VS Code's YAML extension uses it for completion and validation.
public enum WorkflowSchema {
    public static func schema(for registry: ActionRegistry) -> Value {
        var definitions = ValueDictionary()
        definitions["steps"] = object(["type": "array", "items": ref("step")])
        definitions["expression"] = object([
            "type": "string", "pattern": "^\\$\\{.*\\}$", "description": "A ${…} expression that gives the value.",
            "patternErrorMessage": "Expected a ${…} expression here.",
        ])
        definitions["modifiers"] = .dictionary(modifierProperties())
        // Each action by its name, and a package's action by its short name too where no other
        // package's has it (as a workflow may write it: Docs/Packages.md).
        let named = registry.actions.flatMap { action in
            [(action.name, action)] + (action.shortName != action.name && registry.action(named: action.shortName) === action ? [(action.shortName, action)] : [])
        }
        // A bare name: an action that needs no parameter, or a control step that needs no key (`- stop`).
        let bare = named.filter { _, action in !action.parameters.contains { $0.isRequired && !$0.isInput } }.map(\.0)
            + ControlGrammar.steps.filter { !$0.value.isRequired && !$0.keys.contains(where: \.isRequired) }.map(\.keyword)
        // A step is chosen by its key (if/then), not tried against every kind of step (anyOf), so
        // that an editor reports the problem inside the step rather than "matches no schema".
        var branches: [Value] = []
        var keywords: [String] = []
        for (name, action) in named {
            let key = "action:" + name
            definitions[key] = actionStep(action, named: name)
            branches.append(object(["if": object(["required": [.text(name)]]), "then": ref(key)]))
            keywords.append(name)
        }
        for (keyword, step) in controlSteps() {
            definitions["control:" + keyword] = step
            // A step's first key decides what it is, and an action's parameter may share a
            // control keyword's name (`find-files` with `match: any`): with such an action's
            // name, the keyword is that parameter (JSON has no order of keys to go by).
            let sharing = named.filter { $0.1.parameterIndex(named: keyword) != nil }.map { Value.text($0.0) }
            var condition: ValueDictionary = ["required": [.text(keyword)]]
            if !sharing.isEmpty { condition["not"] = object(["anyOf": .list(sharing.map { object(["required": [$0]]) })]) }
            branches.append(object(["if": .dictionary(condition), "then": ref("control:" + keyword)]))
            keywords.append(keyword)
        }
        let naming = object([
            "anyOf": .list(keywords.map { object(["required": [.text($0)]]) }),
            "errorMessage": "A step names an action or a control step: 'relay actions' lists them.",
        ])
        definitions["step"] = object([
            "if": object(["type": "string"]),
            "then": object([
                "enum": .list(bare.map { .text($0) }),
                "description": "An action or control step that needs nothing more.",
                "errorMessage": "Not an action or control step that needs nothing more: an unknown name, or one that needs its parameters (relay describe NAME).",
            ]),
            "else": object(["type": "object", "allOf": .list([naming] + branches)]),
        ])
        let entityTypeNames = registry.entityTypes.descriptors.map(\.name.singular)
        let typeNames = Value.list((ValueType.builtIn.map(\.name) + entityTypeNames).map { .text($0) })
        return object([
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "https://relay.invalid/workflow.schema.json",
            "title": "Relay workflow",
            "description": "A Relay workflow: steps that chain actions, Shortcuts-style.",
            "type": "object",
            "required": ["steps"],
            "additionalProperties": false,
            "properties": object([
                "name": object(["type": "string", "description": "The workflow's name; defaults to the file name."]),
                "description": object(["type": "string"]),
                "input": object([
                    "description": "The type of input the workflow accepts, or {type, default, description}.",
                    "anyOf": [
                        object(["enum": typeNames]),
                        object([
                            "type": "object", "additionalProperties": false,
                            "properties": object([
                                "type": object(["enum": typeNames]), "default": object([:]), "description": object(["type": "string"]),
                            ]),
                        ]),
                    ],
                ]),
                "output": object(["enum": typeNames, "description": "The type of the workflow's output, checked."]),
                "packages": object(["type": "array", "items": object(["type": "string"])]),
                "permissions": object([
                    "type": "object", "additionalProperties": false,
                    "description": "What the workflow expects to touch; needs beyond it are warnings, and the run still asks (Docs/Security.md).",
                    "properties": .dictionary(ValueDictionary(uniqueKeysWithValues: Capability.allCases.map {
                        ($0.rawValue, object(["type": "array", "items": object(["type": "string", "minLength": 1])]))
                    } + [("secrets", object([
                        "type": "object",
                        "description": "Pins each secret: the hosts it may be sent to, or { net, write, run } (Docs/Runs.md, \"Secrets\").",
                        "additionalProperties": object([
                            "oneOf": .list([
                                object(["type": "array", "items": object(["type": "string", "minLength": 1])]),
                                object([
                                    "type": "object", "additionalProperties": false,
                                    "properties": .dictionary(ValueDictionary(uniqueKeysWithValues: ["net", "write", "run"].map {
                                        ($0, object(["type": "array", "items": object(["type": "string", "minLength": 1])]))
                                    })),
                                ]),
                            ])
                        ]),
                    ]))])),
                ]),
                "secrets": object([
                    "type": "array", "uniqueItems": true, "description": "The secrets the workflow reads as ${secrets.NAME} (Docs/Runs.md, \"Secrets\").",
                    "items": object(["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"]),
                ]),
                "variables": object(["type": "object", "description": "Initial values of variables."]),
                "timeout": object(["type": "number", "exclusiveMinimum": 0, "description": "The most seconds the whole run may take."]),
                "on": object([
                    "type": "array", "description": "What starts a run under relay serve: a schedule, a folder to watch, a webhook (Docs/Automations.md).",
                    "items": triggerSchema,
                ]),
                "steps": ref("steps"),
            ]),
            "definitions": .dictionary(definitions),
        ])
    }

    /// One entry of `on:`.
    private static var triggerSchema: Value {
        let seconds = object(["type": "number", "minimum": 0])
        let common: [(String, Value)] = [
            ("concurrency", object(["enum": .list(Trigger.Concurrency.allCases.map { .text($0.rawValue) })])),
        ]
        func kind(_ key: String, _ value: Value, _ options: [(String, Value)]) -> Value {
            object([
                "type": "object", "required": [.text(key)], "additionalProperties": false,
                "properties": .dictionary(ValueDictionary(uniqueKeysWithValues: [(key, value)] + options + common)),
            ])
        }
        return object([
            "oneOf": .list([
                kind(
                    "schedule",
                    object([
                        "oneOf": .list([
                            object(["type": "string", "description": "Five cron fields, or @hourly, @daily, @weekly, @monthly, @yearly."]),
                            object([
                                "type": "object", "required": ["every"], "additionalProperties": false,
                                "properties": object(["every": object(["type": "string", "pattern": "^[0-9.]+[smhd]$"])]),
                            ]),
                        ])
                    ]), [("catch-up", object(["type": "boolean"]))]),
                kind(
                    "watch", object(["type": "string", "minLength": 1]),
                    [
                        ("glob", object(["type": "string"])),
                        ("events", object(["type": "array", "items": object(["enum": .list(Trigger.WatchEvent.allCases.map { .text($0.rawValue) })])])),
                    ]),
                kind(
                    "webhook", object(["type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$"]),
                    [("wait", seconds), ("limit", object(["type": "integer", "minimum": 1]))]),
            ])
        ])
    }

    private static func object(_ entries: KeyValuePairs<String, Value>) -> Value {
        var dictionary = ValueDictionary()
        for (key, value) in entries { dictionary[key] = value }
        return .dictionary(dictionary)
    }

    private static func ref(_ name: String) -> Value { object(["$ref": .text("#/definitions/\(name)")]) }

    /// The schema of a value of `shape` (ControlGrammar).
    private static func schema(of key: ControlGrammar.Key) -> Value {
        var schema: ValueDictionary =
            switch key.shape {
            case .steps: ["$ref": "#/definitions/steps"]
            case .options: ["type": "object", "additionalProperties": ref("steps")]
            case .name: ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"]
            case .text: ["type": "string"]
            case .count: ["anyOf": [object(["type": "integer", "minimum": 0]), ref("expression")]]
            case .seconds: ["anyOf": [object(["type": "number", "exclusiveMinimum": 0]), ref("expression")]]
            case .assignments: ["type": "object"]
            case .stepsOrContinue: ["anyOf": [object(["const": "continue"]), ref("steps")]]
            case .value: [:]
            case .parallelism: ["anyOf": [object(["type": ["integer", "boolean"]]), ref("expression")]]
            case .retry: retrySchema()
            case .flag: ["type": "boolean"]
            }
        schema["description"] = .text(key.summary)
        return .dictionary(schema)
    }

    /// `retry: 3` or `retry: { times: 3, delay: 2, backoff: 2, max-delay: 60 }` (RetryPolicy.keys).
    private static func retrySchema() -> ValueDictionary {
        var properties = ValueDictionary()
        for key in RetryPolicy.keys {
            properties[key.name] = object([
                "type": .text(key.name == "times" ? "integer" : "number"), "minimum": .number(key.range.lowerBound),
                "maximum": .number(key.range.upperBound), "description": .text(key.summary),
            ])
        }
        let times = RetryPolicy.keys[0].range
        return [
            "anyOf": [
                object(["type": "integer", "minimum": .number(times.lowerBound), "maximum": .number(times.upperBound)]),
                object(["type": "object", "properties": .dictionary(properties), "required": ["times"], "additionalProperties": false]),
            ]
        ]
    }

    private static func modifierProperties() -> ValueDictionary {
        var properties = ValueDictionary()
        for modifier in ControlGrammar.modifiers { properties[modifier.name] = schema(of: modifier) }
        return properties
    }

    private static func parameterSchema(_ parameter: ParameterDefinition) -> Value {
        var schema = ValueDictionary()
        let description = parameter.summary.isEmpty ? parameter.title : parameter.summary
        schema["description"] = .text(description)
        if !parameter.choices.isEmpty {
            // A choice named "true" or "false" (`overwrite`) is written as YAML's true or false too.
            let choices = (parameter.choices + parameter.choices.compactMap { parameter.choiceTitles[$0] }).flatMap { choice -> [Value] in
                choice == "true" || choice == "false" ? [.text(choice), .boolean(choice == "true")] : [.text(choice)]
            }
            guard parameter.type == .list else {
                schema["anyOf"] = [object(["enum": .list(choices)]), ref("expression")]
                schema["errorMessage"] = .text(
                    "'\(parameter.name)' is one of \(parameter.choices.joined(separator: ", ")), or a ${…} expression.")
                return .dictionary(schema)
            }
            // A list's choices are its items' (a single one is a list of one).
            let item = object(["anyOf": [object(["enum": .list(choices)]), ref("expression")]])
            schema["anyOf"] = [object(["type": "array", "items": item]), item]
            schema["errorMessage"] = .text(
                "'\(parameter.name)' is a list of \(parameter.choices.joined(separator: ", ")), or a ${…} expression.")
            return .dictionary(schema)
        }
        // A number or a yes/no is written as one, or given by a `${…}` expression.
        switch parameter.type {
        case .number, .boolean:
            let number = parameter.type == .number
            schema["anyOf"] = [object(["type": .text(number ? "number" : "boolean")]), ref("expression")]
            schema["errorMessage"] = .text(
                "'\(parameter.name)' is \(number ? "a number" : "true or false"), or a ${…} expression.")
            return .dictionary(schema)
        default: break
        }
        let types: [Value] =
            switch parameter.type {
            case .list: ["array", "string", "number", "boolean", "object"]
            case .dictionary: ["object", "string"]
            case .text: ["string", "number", "boolean"]
            default: []
            }
        if !types.isEmpty { schema["type"] = .list(types) }
        return .dictionary(schema)
    }

    private static func actionStep(_ action: ActionDefinition, named name: String) -> Value {
        var parameters = ValueDictionary()
        for parameter in action.parameters { parameters[parameter.name] = parameterSchema(parameter) }
        let required = action.parameters.filter { $0.isRequired && !$0.isInput }.map { Value.text($0.name) }
        var named = ValueDictionary()
        named["type"] = "object"
        named["properties"] = .dictionary(parameters)
        named["additionalProperties"] = .boolean(false)
        if !required.isEmpty { named["required"] = .list(required) }
        // Chosen by the value's shape: parameters by name, nothing, or the primary parameter's value.
        let scalar: Value = action.primaryIndex.map { parameterSchema(action.parameters[$0]) }
            ?? object(["not": object([:]), "errorMessage": .text("'\(name)' has no primary parameter: name its parameters, { name: value }.")])
        var properties = modifierProperties()
        properties[name] = object([
            "description": .text(action.summary),
            // A primary parameter that takes a dictionary (`dictionary: { a: 1 }`) may be the mapping itself.
            "if": object(["type": "object"]),
            "then": action.primaryIndex.map { [.dictionary, .any].contains(action.parameters[$0].type) } == true
                ? object(["anyOf": [.dictionary(named), scalar]]) : .dictionary(named),
            "else": object(["if": object(["type": "null"]), "else": scalar]),
        ])
        // With a primary value, the other parameters may be written beside the action as siblings
        // (`- find: photos` then `where:` at the step's level; Docs/Language.md).
        if let primary = action.primaryIndex {
            for (index, parameter) in action.parameters.enumerated() where index != primary && properties[parameter.name] == nil {
                properties[parameter.name] = parameterSchema(parameter)
            }
        }
        return object([
            "type": "object", "required": [.text(name)], "additionalProperties": false,
            "properties": .dictionary(properties),
        ])
    }

    private static func controlSteps() -> [(String, Value)] {
        ControlGrammar.steps.map { step in
            var properties = modifierProperties()
            for key in step.keys { properties[key.name] = schema(of: key) }
            var head = ValueDictionary()
            if case .dictionary(let value) = schema(of: step.value) { head = value }
            head["description"] = .text(step.summary)
            properties[step.keyword] = .dictionary(head)
            let required = [step.keyword] + step.keys.filter(\.isRequired).map(\.name)
            return (step.keyword, object([
                "type": "object", "required": .list(required.map { .text($0) }), "additionalProperties": false,
                "properties": .dictionary(properties),
            ]))
        }
    }
}
