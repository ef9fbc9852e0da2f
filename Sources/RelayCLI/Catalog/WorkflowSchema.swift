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
        var stepChoices: [Value] = [
            object(["type": "string", "enum": .list(registry.actions.map { .text($0.name) }), "description": "An action with no parameters."])
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

    private static func modifierProperties() -> ValueDictionary {
        var properties = ValueDictionary()
        properties["as"] = object(["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "description": "Also store the step's output in this variable."])
        properties["input"] = object(["description": "The step's input, instead of the previous step's output."])
        properties["when"] = object(["description": "Run the step only if this condition holds."])
        properties["on-error"] = object(["anyOf": [object(["const": "continue"]), ref("steps")], "description": "What to do on a runtime error."])
        properties["timeout"] = object(["type": ["number", "string"], "description": "Fail the step if it runs longer (seconds)."])
        properties["label"] = object(["type": "string", "description": "A name shown in traces and error messages."])
        return properties
    }

    private static func parameterSchema(_ parameter: ParameterDefinition) -> Value {
        var schema = ValueDictionary()
        let description = parameter.summary.isEmpty ? parameter.title : parameter.summary
        schema["description"] = .text(description)
        if !parameter.choices.isEmpty {
            schema["anyOf"] = [object(["enum": .list(parameter.choices.map { .text($0) })]), ref("expression")]
            return .dictionary(schema)
        }
        let types: [Value] =
            switch parameter.type {
            case .number: ["number", "string"]
            case .boolean: ["boolean", "string"]
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
        func step(_ keyword: String, _ own: KeyValuePairs<String, Value>, required: [String], description: String) -> Value {
            var properties = modifierProperties()
            for (key, value) in own { properties[key] = value }
            if case .dictionary(var head)? = properties[keyword] {
                head["description"] = .text(description)
                properties[keyword] = .dictionary(head)
            }
            return object([
                "type": "object", "required": .list(required.map { .text($0) }), "additionalProperties": false,
                "properties": .dictionary(properties),
            ])
        }
        return [
            ("if", step("if", ["if": object([:]), "then": ref("steps"), "else": ref("steps")], required: ["if", "then"],
                description: "Run 'then' if the condition holds, else 'else'.")),
            ("repeat", step("repeat", ["repeat": object(["type": ["integer", "string"]]), "do": ref("steps")],
                required: ["repeat", "do"], description: "Run 'do' this many times; ${index} counts from 1.")),
            ("for-each", step("for-each", [
                "for-each": object([:]), "as": object(["type": "string"]),
                "parallel": object(["type": ["integer", "boolean", "string"]]), "do": ref("steps"),
            ], required: ["for-each", "do"], description: "Run 'do' for each item (default: the previous output).")),
            ("menu", step("menu", ["menu": object(["type": "string"]), "options": object(["type": "object", "additionalProperties": ref("steps")])],
                required: ["menu", "options"], description: "Ask which option to run.")),
            ("set", step("set", ["set": object(["type": "object"])], required: ["set"], description: "Set variables.")),
            ("append", step("append", ["append": object(["type": "object"])], required: ["append"], description: "Add to list variables.")),
            ("stop", step("stop", ["stop": object([:])], required: ["stop"], description: "End the workflow with this output.")),
        ]
    }
}
