import RelayKit
/// The converters of every registered package, searched for the cheapest chain from what a value
/// offers to what is asked for, at the cost `Conversions.cost(of:)` gives.
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
                    let cost = here.cost + Conversions.cost(of: converter)
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

    /// The cheapest way from one of `offered` to one of `wanted`: the index of the offered
    /// representation it starts from, and its chain (empty when that one already is what is
    /// wanted). Of equal costs the earlier offered wins, so an order by fidelity is kept.
    public func cheapest(from offered: [Representation], to wanted: [Representation]) -> (index: Int, chain: [Converter])? {
        var best: (index: Int, chain: [Converter], cost: Int)?
        for (index, representation) in offered.enumerated() {
            for target in wanted {
                guard let chain = chain(from: [representation], to: target) else { continue }
                let cost = Conversions.cost(of: chain)
                if cost < (best?.cost ?? .max) { best = (index, chain, cost) }
                if cost == 0 { return (index, chain) }
            }
        }
        return best.map { ($0.index, $0.chain) }
    }

    /// What every converter can make, for error messages.
    public var targets: [Representation] {
        var seen: [Representation] = []
        for converter in converters where !seen.contains(converter.to) { seen.append(converter.to) }
        return seen
    }
}
