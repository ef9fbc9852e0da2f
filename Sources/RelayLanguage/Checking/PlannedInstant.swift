import RelayEngine
import RelayKit

/// An action step planned once to run without waiting (`InstantIntent`): the plan, and what it
/// reads for each `${…}` the step writes, in order.
public final class PlannedInstant: Sendable {
    /// What one `${…}` is: a variable's value, or a value written there.
    public enum Read: Sendable {
        case variable(String)
        case value(Value)
    }

    public let action: InstantAction
    public let reads: [Read]

    /// The plan of a step of `definition` that writes `arguments`, or nil: the action plans no
    /// step, or this one writes a list, a dictionary or a value that may have to be fetched.
    init?(_ definition: ActionDefinition, _ arguments: [Template?]) {
        guard let type = definition.intentType as? any InstantIntent.Type else { return nil }
        var reads: [Read] = []
        var written: [InstantArgument?] = []
        written.reserveCapacity(arguments.count)
        for template in arguments {
            guard let template else {
                written.append(nil)
                continue
            }
            switch template.kind {
            case .literal(let value): written.append(.constant(value))
            case .expression(let expression):
                guard let read = Self.read(expression) else { return nil }
                reads.append(read)
                written.append(.value)
            case .interpolation(let parts):
                var pieces: [TextPattern.Piece] = []
                for part in parts {
                    switch part {
                    case .text(let text): pieces.append(.text(text))
                    case .expression(let expression):
                        guard let read = Self.read(expression) else { return nil }
                        reads.append(read)
                        pieces.append(.value)
                    }
                }
                written.append(.pattern(TextPattern(pieces)))
            case .list, .dictionary: return nil
            }
        }
        guard let action = type.instant(written) else { return nil }
        self.action = action
        self.reads = reads
    }

    /// How `expression` is read without waiting, or nil: a variable is, a property may not be (an
    /// entity's may have to be fetched), and the rest are left to the step's usual way.
    private static func read(_ expression: ValueExpression) -> Read? {
        switch expression.kind {
        case .variable(let name): .variable(name)
        case .literal(let value): .value(value)
        default: nil
        }
    }
}
