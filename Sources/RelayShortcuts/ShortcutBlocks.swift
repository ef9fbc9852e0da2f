import RelayKit

/// A shortcut's actions as blocks: Shortcuts stores control flow flat — an If, its Otherwise
/// and its End If are three actions sharing a `GroupingIdentifier`, told apart by
/// `WFControlFlowMode` (0 starts, 1 goes on: Otherwise, a menu's item; 2 ends).
indirect enum ShortcutNode: Sendable {
    case action(ShortcutAction)
    /// A block: each part is the action that opens it (the start, then each middle) and the
    /// actions inside it; `end` is the action that ends the block (whose output is the block's).
    case block(parts: [(opener: ShortcutAction, body: [ShortcutNode])], end: ShortcutAction)

    /// Pairs starts, middles and ends into blocks.
    static func blocks(of actions: [ShortcutAction]) throws(ShortcutError) -> [ShortcutNode] {
        struct Open {
            var group: String
            var parts: [(opener: ShortcutAction, body: [ShortcutNode])]
        }
        var root: [ShortcutNode] = [], open: [Open] = []
        func append(_ node: ShortcutNode) {
            if open.isEmpty {
                root.append(node)
            } else {
                open[open.count - 1].parts[open[open.count - 1].parts.count - 1].body.append(node)
            }
        }
        for action in actions {
            guard let mode = action.parameters["WFControlFlowMode"]?.integer else {
                append(.action(action))
                continue
            }
            let group = action.parameters["GroupingIdentifier"]?.text ?? action.identifier
            switch mode {
            case 0:
                guard open.count < Limits.blockDepth else {
                    throw ShortcutError(action: action.number, "blocks nest deeper than \(Limits.blockDepth) (Docs/Reliability.md, \"Limits\")")
                }
                open.append(Open(group: group, parts: [(action, [])]))
            case 1, 2:
                guard let top = open.last else {
                    throw ShortcutError(action: action.number, "'\(action.shortIdentifier)' \(mode == 1 ? "goes on with" : "ends") a block that no action started")
                }
                guard top.group == group, top.parts[0].opener.identifier == action.identifier else {
                    let known = open.contains { $0.group == group }
                    throw ShortcutError(
                        action: action.number,
                        known
                            ? "'\(action.shortIdentifier)' ends a block while the block action \(top.parts[0].opener.number) started is still open"
                            : "'\(action.shortIdentifier)' \(mode == 1 ? "goes on with" : "ends") a block that no action started (its GroupingIdentifier is not open)")
                }
                if mode == 1 {
                    open[open.count - 1].parts.append((action, []))
                } else {
                    let finished = open.removeLast()
                    append(.block(parts: finished.parts, end: action))
                }
            default:
                throw ShortcutError(action: action.number, "WFControlFlowMode is \(mode); a shortcut has 0 (start), 1 (middle) or 2 (end)")
            }
        }
        if let unended = open.last {
            let opener = unended.parts[0].opener
            throw ShortcutError(action: opener.number, "'\(opener.shortIdentifier)' starts a block that never ends")
        }
        return root
    }
}
