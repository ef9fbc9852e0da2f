/// The converters of every registered package, searched for the cheapest chain from what a value
/// offers to what is asked for: each lossless step costs 1, each lossy step 100, so a chain with
/// fewer lossy steps always wins, then the shorter one.
public struct ConversionGraph: Sendable {
    public private(set) var converters: [Converter] = []

    public init() {}

    public mutating func add(_ converters: [Converter]) {
        self.converters += converters
    }

    /// The cheapest chain of converters from any of `offered` to `target`, or nil if there is none.
    /// An empty chain means an offered representation already satisfies the target.
    public func chain(from offered: [Representation], to target: Representation) -> [Converter]? {
        if offered.contains(where: { $0.satisfies(target) }) { return [] }
        var best: [Representation: (cost: Int, chain: [Converter])] = [:]
        for representation in offered { best[representation] = (0, []) }
        var frontier = offered
        var result: (cost: Int, chain: [Converter])?
        // Bellman–Ford style relaxation: the graph is small (tens of converters).
        for _ in 0...converters.count {
            var next: [Representation] = []
            for node in frontier {
                guard let here = best[node] else { continue }
                for converter in converters where node.satisfies(converter.from) {
                    let cost = here.cost + (converter.isLossy ? 100 : 1)
                    let chain = here.chain + [converter]
                    if converter.to.satisfies(target), cost < (result?.cost ?? .max) { result = (cost, chain) }
                    if cost < (best[converter.to]?.cost ?? .max) {
                        best[converter.to] = (cost, chain)
                        next.append(converter.to)
                    }
                }
            }
            if next.isEmpty { break }
            frontier = next
        }
        return result?.chain
    }

    /// What every converter can make, for error messages.
    public var targets: [Representation] {
        var seen: [Representation] = []
        for converter in converters where !seen.contains(converter.to) { seen.append(converter.to) }
        return seen
    }
}
