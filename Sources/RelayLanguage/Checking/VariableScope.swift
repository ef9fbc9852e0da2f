/// The variables the checker knows to be defined at a point of a workflow.
struct VariableScope {
    /// Names every step can read.
    static let builtIns: Set<String> = ["input", "previous", "scratch"]
    /// Names that exist only inside their block, with the block that makes them.
    static let blockNames: [String: String] = [
        "item": "a for-each block", "index": "a for-each or repeat block", "error": "an on-error block",
    ]

    /// Variables of the whole run: `variables:`, `--set`, `set`, `append` and `as`.
    var runVariables: Set<String>
    /// Variables of the blocks around the current step, innermost last.
    var blockVariables: [Set<String>] = []

    func isDefined(_ name: String) -> Bool {
        Self.builtIns.contains(name) || runVariables.contains(name) || blockVariables.contains { $0.contains(name) }
    }

    var allNames: Set<String> {
        blockVariables.reduce(Self.builtIns.union(runVariables)) { $0.union($1) }
    }
}
