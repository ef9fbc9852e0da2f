import RelayKit

/// A built-in action whose output is worked out at once from its arguments' values: it reads
/// nothing, changes nothing, waits for nothing and asks nothing. When a workflow is checked, each
/// of its steps is planned once (`instant(_:)`), and the step then runs without making the intent,
/// a context or an async call (Docs/Architecture.md, "Steps that wait for nothing").
///
/// `perform` stays what runs whenever the plan declines: for a step it did not plan, and for
/// values it does not take (`InstantAction.output` gives nil). Both ways give the same output.
public protocol InstantIntent: Intent {
    /// The plan for a step that writes `arguments` (one per parameter, in the order of
    /// `ActionDefinition.parameters`; nil where the step writes nothing), or nil to run it as usual.
    static func instant(_ arguments: [InstantArgument?]) -> InstantAction?
}

/// What a step writes for one parameter, as a plan sees it: each `${…}` is a value the plan is
/// given when the step runs, in the order they are written across the step's arguments.
public enum InstantArgument: Sendable, Equatable {
    /// A value written as it is (`calculate: "2 + 3"`).
    case constant(Value)
    /// Text with values inside (`"${index} * 2 + 1"`): each `.value` piece is the next value.
    case pattern(TextPattern)
    /// One value alone (`${count}`).
    case value
}

/// How a planned step's output is made from its values.
public struct InstantAction: Sendable {
    /// The output for the step's values (one per `${…}`, in order), or nil when the plan does not
    /// take them and the step runs as usual. An error is the step's, as `perform`'s would be.
    public let output: @Sendable ([Value]) throws -> Value?

    public init(output: @escaping @Sendable ([Value]) throws -> Value?) { self.output = output }
}
