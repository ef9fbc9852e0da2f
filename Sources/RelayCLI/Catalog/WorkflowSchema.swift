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
        ])
        definitions["modifiers"] = .dictionary(modifierProperties())
        // A bare name: an action that needs no parameter, or a control step that needs no key (`- stop`).
        let bare = registry.actions.filter { action in !action.parameters.contains { $0.isRequired && !$0.isInput } }.map(\.name)
            + ControlGrammar.steps.filter { !$0.value.isRequired && !$0.keys.contains(where: \.isRequired) }.map(\.keyword)
        var stepChoices: [Value] = [
            object(["type": "string", "enum": .list(bare.map { .text($0) }), "description": "An action or control step that needs nothing more."])
        ]
        for action in registry.actions {
            let key = "action:" + action.name
            definitions[key] = actionStep(action)
            stepChoices.append(ref(key))
        }
        for (keyword, step) in controlSteps() {
            definitions["control:" + keyword] = step
            stepChoices.append(ref("control:" + keyword))
        }
        definitions["step"] = object(["anyOf": .list(stepChoices)])
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
                    })),
                ]),
                "variables": object(["type": "object", "description": "Initial values of variables."]),
                "timeout": object(["type": "number", "exclusiveMinimum": 0, "description": "The most seconds the whole run may take."]),
                "steps": ref("steps"),
            ]),
            "definitions": .dictionary(definitions),
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
            }
        schema["description"] = .text(key.summary)
        return .dictionary(schema)
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
            let choices = parameter.choices.flatMap { choice -> [Value] in
                choice == "true" || choice == "false" ? [.text(choice), .boolean(choice == "true")] : [.text(choice)]
            }
            schema["anyOf"] = [object(["enum": .list(choices)]), ref("expression")]
            return .dictionary(schema)
        }
        // A number or a yes/no is written as one, or given by a `${…}` expression.
        switch parameter.type {
        case .number, .boolean:
            schema["anyOf"] = [object(["type": .text(parameter.type == .number ? "number" : "boolean")]), ref("expression")]
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

    private static func actionStep(_ action: ActionDefinition) -> Value {
        var parameters = ValueDictionary()
        for parameter in action.parameters { parameters[parameter.name] = parameterSchema(parameter) }
        let required = action.parameters.filter { $0.isRequired && !$0.isInput }.map { Value.text($0.name) }
        var named = ValueDictionary()
        named["type"] = "object"
        named["properties"] = .dictionary(parameters)
        named["additionalProperties"] = .boolean(false)
        if !required.isEmpty { named["required"] = .list(required) }
        var argumentChoices: [Value] = [object(["type": "null"]), .dictionary(named)]
        if let primary = action.primaryIndex { argumentChoices.insert(parameterSchema(action.parameters[primary]), at: 0) }
        var properties = modifierProperties()
        properties[action.name] = object(["description": .text(action.summary), "anyOf": .list(argumentChoices)])
        // With a primary value, the other parameters may be written beside the action as siblings
        // (`- find: photos` then `where:` at the step's level; Docs/Language.md).
        if let primary = action.primaryIndex {
            for (index, parameter) in action.parameters.enumerated() where index != primary && properties[parameter.name] == nil {
                properties[parameter.name] = parameterSchema(parameter)
            }
        }
        return object([
            "type": "object", "required": [.text(action.name)], "additionalProperties": false,
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
