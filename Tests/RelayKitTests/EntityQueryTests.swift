import Foundation
import RelayKit
import RelayEngine
import Testing

@Suite("Entities: comparators, push-down, deferred properties")
struct EntityQueryTests {
    private func ids(_ clauses: ValueDictionary, match: String = "all", sort: Value? = nil, limit: Int? = nil) async throws -> [String] {
        // "Now" is early today, before the samples' noon: the date comparators' answers do not
        // depend on the hour the tests run at.
        let now = Calendar.current.startOfDay(for: Date()).addingTimeInterval(6 * 3600)
        let query = try FilterQuery(where: clauses, matchAll: match == "all", sort: sort, limit: limit, now: now)
        return try await query.apply(to: Chore.samples.map(\.parameterValue)).map { value in
            guard case .entity(let entity) = value else { return "?" }
            return entity.id
        }
    }

    @Test("every comparator that fits a text property, ignoring case unless told")
    func textComparators() async throws {
        #expect(try await ids(["name": "water plants"]) == ["1"])
        #expect(try await ids(["name": ["is": "Water plants", "case-sensitive": true]]) == ["1"])
        #expect(try await ids(["name": ["is": "water plants", "case-sensitive": true]]) == [])
        #expect(try await ids(["name": ["is-not": "Water plants"]]) == ["2", "3", "4", "5"])
        #expect(try await ids(["name": ["contains": "THE"]]) == ["2", "4"])
        #expect(try await ids(["name": ["does-not-contain": "the"]]) == ["1", "3", "5"])
        #expect(try await ids(["name": ["begins-with": "w"]]) == ["1", "2", "4"])
        #expect(try await ids(["name": ["ends-with": "S"]]) == ["1", "3"])
        #expect(try await ids(["name": ["matches": "^w.*(car|dog)$"]]) == ["2", "4"])
        #expect(try await ids(["name": ["is-any-of": ["paint fence", "File Taxes"]]]) == ["3", "5"])
        #expect(try await ids(["name": ["has-any-value": true]]).count == 5)
    }

    @Test("every comparator that fits a number property")
    func numberComparators() async throws {
        #expect(try await ids(["minutes": 45]) == ["2"])
        #expect(try await ids(["minutes": ["is-not": 45]]) == ["1", "3", "4", "5"])
        #expect(try await ids(["minutes": ["greater-than": 45]]) == ["3", "5"])
        #expect(try await ids(["minutes": ["at-least": 45]]) == ["2", "3", "5"])
        #expect(try await ids(["minutes": ["less-than": 30]]) == ["1"])
        #expect(try await ids(["minutes": ["at-most": 30]]) == ["1", "4"])
        #expect(try await ids(["minutes": ["between": [30, 180]]]) == ["2", "3", "4"])
        #expect(try await ids(["minutes": ["is-any-of": [10, 240]]]) == ["1", "5"])
        #expect(try await ids(["hours": ["at-least": 3]]) == ["3", "5"])
    }

    @Test("every comparator that fits a date property; 'is' on a day matches the whole day")
    func dateComparators() async throws {
        let today = DateFormatting.iso8601(Date()).prefix(10)
        #expect(try await ids(["due": .text(String(today))]) == ["1"])
        #expect(try await ids(["due": ["is-not": .text(String(today))]]) == ["2", "3", "4", "5"])
        #expect(try await ids(["due": ["is-today": true]]) == ["1"])
        #expect(try await ids(["due": ["is-today": false]]) == ["2", "3", "4", "5"])
        #expect(try await ids(["due": ["is-before": "today"]]) == ["2", "5"])
        #expect(try await ids(["due": ["is-after": "tomorrow"]]) == ["3", "4"])
        #expect(try await ids(["due": ["in-last": "7 days"]]) == ["2"])
        #expect(try await ids(["due": ["in-next": "2 days"]]) == ["1", "4"])
        #expect(try await ids(["due": ["in-next": "1 month"]]) == ["1", "3", "4"])
        #expect(try await ids(["due": ["between": ["yesterday", "tomorrow"]]]) == ["1"])
        #expect(try await ids(["due": ["has-any-value": true]]).count == 5)
    }

    @Test("every comparator that fits a boolean property; match any; sort and limit")
    func booleansMatchSortLimit() async throws {
        #expect(try await ids(["done": true]) == ["2", "4"])
        #expect(try await ids(["done": ["is-not": true]]) == ["1", "3", "5"])
        #expect(try await ids(["done": true, "minutes": ["greater-than": 100]], match: "any") == ["2", "3", "4", "5"])
        #expect(try await ids(["done": true, "minutes": ["greater-than": 100]], match: "all") == [])
        #expect(try await ids([:], sort: "name") == ["3", "5", "4", "2", "1"])
        #expect(try await ids([:], sort: ["by": "minutes", "order": "descending"], limit: 2) == ["5", "3"])
        #expect(try await ids([:], sort: ["done", ["by": "minutes", "order": "descending"]]) == ["5", "3", "1", "2", "4"])
        #expect(try await ids(["done": false], limit: 0) == [])
    }

    @Test("each property takes only the comparators that fit its type; the error lists them")
    func validation() {
        let validation = FilterValidation(entityType: EntityDescriptor.of(Chore.self))
        let problems = validation.problems(
            where: ["name": ["greater-than": 3], "minutes": ["contains": "1"], "due": ["begins-with": "2"], "done": ["between": [1, 2]]],
            sort: ["by": "nmae"])
        let messages = problems.map(\.message)
        #expect(messages.contains("'greater-than' does not apply to 'name', a text; use is, is-not, contains, does-not-contain, begins-with, ends-with, matches, is-any-of, has-any-value"))
        #expect(messages.contains { $0.hasPrefix("'contains' does not apply to 'minutes', a number; use is, is-not, greater-than") })
        #expect(messages.contains { $0.hasPrefix("'begins-with' does not apply to 'due', a date; use is, is-not, is-before, is-after, between, is-today, in-last, in-next") })
        #expect(messages.contains { $0.hasPrefix("'between' does not apply to 'done', a boolean; use is, is-not, has-any-value") })
        #expect(messages.contains("a chore has no property 'nmae'; did you mean 'name'?"))
        #expect(validation.problems(where: ["minutes": ["between": 5]], sort: nil).first?.message == "'minutes': 'between' takes [low, high], not number 5")
        #expect(validation.problems(where: ["due": ["in-last": "soon"]], sort: nil).first?.message.contains("is not a duration") == true)
        #expect(validation.problems(where: ["name": ["contians": "a"]], sort: nil).first?.message.contains("did you mean 'contains'") == true)
        #expect(validation.problems(where: ["name": ["contains": "a"], "minutes": ["at-least": 3], "due": ["in-last": "3 days"]], sort: "detail").isEmpty)
    }

    @Test("what a query supports is pushed down; the rest is done in memory, with the same result")
    func pushDown() async throws {
        let capable = ChoreQuery(
            chores: Chore.samples,
            capabilities: QueryCapabilities(comparators: ["name": [.contains], "minutes": [.greaterThan]], sortable: ["minutes"], limits: true))
        let plain = ChoreQuery(chores: Chore.samples)
        let all = try FilterQuery(
            where: ["name": ["contains": "a"], "minutes": ["greater-than": 20]], matchAll: true,
            sort: ["by": "minutes", "order": "descending"], limit: 2)
        let pushedResult = try await EntityFinder.find(with: capable, all).map(\.id)
        let memoryResult = try await EntityFinder.find(with: plain, all).map(\.id)
        #expect(pushedResult == ["5", "3"])
        #expect(pushedResult == memoryResult)
        let received = try #require(capable.requests.all.last)
        #expect(received.conditions.map(\.comparator) == [.contains, .greaterThan])
        #expect(received.sort == [SortKey(property: "minutes", ascending: false)])
        #expect(received.limit == 2)
        #expect(plain.requests.all.last?.conditions.isEmpty == true)

        // One condition the query cannot do: it gets the other; sort and limit stay in memory.
        let mixed = try FilterQuery(where: ["name": ["contains": "a"], "done": false], matchAll: true, sort: "minutes", limit: 1)
        #expect(try await EntityFinder.find(with: capable, mixed).map(\.id) == (try await EntityFinder.find(with: plain, mixed).map(\.id)))
        let partial = try #require(capable.requests.all.last)
        #expect(partial.conditions.map(\.property) == ["name"])
        #expect(partial.sort.isEmpty && partial.limit == nil)

        // match: any with an unsupported condition pushes nothing (an item failing a pushed
        // condition could pass the other).
        let any = try FilterQuery(where: ["name": ["contains": "dog"], "done": false], matchAll: false, sort: nil, limit: nil)
        #expect(try await EntityFinder.find(with: capable, any).map(\.id) == ["1", "3", "4", "5"])
        #expect(capable.requests.all.last?.conditions.isEmpty == true)
    }

    @Test("a deferred property's getter runs only when read or filtered on")
    func deferredProperties() async throws {
        Chore.detailFetches.reset()
        let descriptor = EntityDescriptor.of(Chore.self)
        let all = try await descriptor.allEntities()
        _ = try await FilterQuery(where: ["minutes": ["greater-than": 1]], matchAll: true, sort: "name", limit: 3)
            .apply(to: all.map(Value.entity))
        _ = all.map { Value.entity($0).textValue }
        _ = all.map(\.dictionaryNow)
        #expect(Chore.detailFetches.value == 0)
        #expect(try await all[0].property("detail") == "detail of Water plants")
        #expect(Chore.detailFetches.value == 1)
        _ = try await FilterQuery(where: ["detail": ["contains": "dog"]], matchAll: true, sort: nil, limit: nil).apply(to: all.map(Value.entity))
        #expect(Chore.detailFetches.value == 6)
        #expect(try await all[1].dictionary(includingDeferred: true)["detail"] == "detail of Wash the car")
        #expect(try await all[1].url().absoluteString == "https://chores.example/2/detail%20of%20Wash%20the%20car")
    }

    @Test("entity → text is its title, → dictionary its id, title and properties; a stored read needs no fetch")
    func coercions() async throws {
        let entity = EntityValue(Chore.samples[1])
        let chore = Value.entity(entity)
        #expect(chore.textValue == "Wash the car")
        #expect(chore.type == .entity("chore"))
        #expect(chore.type.withArticle == "a chore")
        // The conversions' entity → dictionary, without the deferred properties (here: none fetched).
        let dictionary = try await entity.dictionary(includingDeferred: false)
        #expect(Array(dictionary.keys) == ["id", "title", "name", "minutes", "due", "done", "hours"])
        #expect(Array(entity.dictionaryNow.keys) == Array(dictionary.keys))
        #expect(throws: CoercionError.self) { try chore.dictionaryValue() }
        #expect(try chore.property("minutes") == 45)
        #expect(throws: ValueAccessError.self) { try chore.property("detail") }
        #expect(throws: ValueAccessError.self) { try chore.property("colour") }
        // A single entity is a list of one where a list's own property is read, fetched or not.
        #expect(try await chore.resolvedProperty("count") == 1)
        #expect(try await chore.resolvedProperty("first") == chore)
        #expect(try chore.property("last") == chore)
    }
}
