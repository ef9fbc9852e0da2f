import RelayKit
/// `find` (Docs/Language.md, "Entities"): the parts of a query an entity type's query does natively are pushed down to
/// it; the interpreter does the rest in memory, with the same result either way.
public enum EntityFinder {
    /// How a `find` is split between the query and memory.
    public struct Plan: Sendable {
        /// What the entity query receives.
        public let pushed: QueryRequest
        /// What is then applied in memory to what the query returned.
        public let residual: FilterQuery
    }

    /// Splits `query` by what `capabilities` allow. With `match: all`, each supported condition is
    /// pushed; with `match: any`, conditions are pushed only if all are supported (an item that
    /// fails a pushed condition could pass an in-memory one). Sort and limit are pushed only when
    /// nothing is left for memory and the query supports them.
    public static func plan(_ query: FilterQuery, capabilities: QueryCapabilities) -> Plan {
        let supported = query.conditions.filter(capabilities.supports)
        let pushedConditions: [FilterCondition]
        let residualConditions: [FilterCondition]
        if query.matchAll || supported.count == query.conditions.count {
            pushedConditions = supported
            residualConditions = query.conditions.filter { !capabilities.supports($0) }
        } else {
            pushedConditions = []
            residualConditions = query.conditions
        }
        // A random order is made in memory, from all that the query finds.
        let sortPushed = residualConditions.isEmpty && !query.shuffled && query.sort.allSatisfy { capabilities.sortable.contains($0.property) }
        let limitPushed = sortPushed && capabilities.limits && query.limit != nil
        let pushed = QueryRequest(
            conditions: pushedConditions, matchAll: query.matchAll, sort: sortPushed ? query.sort : [],
            limit: limitPushed ? query.limit : nil)
        let residual = FilterQuery(
            conditions: residualConditions, matchAll: query.matchAll, sort: sortPushed ? [] : query.sort, shuffled: query.shuffled,
            limit: limitPushed ? nil : query.limit)
        return Plan(pushed: pushed, residual: residual)
    }

    /// The entities `entityQuery` finds for `query`: what it supports pushed down, the rest in memory.
    public static func find<Q: EntityQuery>(with entityQuery: Q, _ query: FilterQuery) async throws -> [Q.Result] {
        let plan = plan(query, capabilities: entityQuery.capabilities)
        let fetched = try await entityQuery.entities(matching: plan.pushed).map(\.parameterValue)
        return try await plan.residual.apply(to: fetched).compactMap { try? Q.Result(parameterValue: $0) }
    }

    /// The entities of `descriptor`'s type that satisfy `query`, sorted and limited.
    public static func find(_ descriptor: EntityDescriptor, _ query: FilterQuery) async throws -> [EntityValue] {
        let plan = plan(query, capabilities: descriptor.capabilities)
        let fetched = try await descriptor.values(matching: plan.pushed)
        return try await plan.residual.apply(to: fetched).compactMap {
            if case .entity(let entity) = $0 { entity } else { nil }
        }
    }
}
