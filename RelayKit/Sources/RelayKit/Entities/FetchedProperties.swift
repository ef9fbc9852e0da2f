import Foundation

/// The deferred properties fetched during one run (Docs/Language.md, "Entities"): each is fetched
/// at most once per entity — by type, id and name — however many steps, filters and sorts read
/// it, and however many copies of the entity there are. Runs bind their own with `run(_:)`; reads
/// outside any run fetch every time.
public final class FetchedProperties: @unchecked Sendable {
    struct Key: Hashable {
        let type: String
        let id: String
        let property: String
    }

    /// The run's fetched properties, bound for the tasks of the run (a sub-workflow's too).
    @TaskLocal package static var current: FetchedProperties?

    private let lock = NSLock()
    /// Each fetch under way or done; one that failed is forgotten, so a later read tries again.
    private var fetches: [Key: Task<Value, any Error>] = [:]

    public init() {}

    /// Runs `body` with a run's fetched properties, unless the task is in a run already.
    public static func run<T>(_ body: () async throws -> T) async rethrows -> T {
        if current != nil { return try await body() }
        return try await $current.withValue(FetchedProperties()) { try await body() }
    }

    /// Of `keys`, those not fetched or being fetched.
    func missing(_ keys: [Key]) -> Set<Key> {
        lock.withLock { Set(keys.filter { fetches[$0] == nil }) }
    }

    /// Values fetched together (`PropertyReader.prefetch`), kept as if each had been fetched alone.
    func store(_ values: [(Key, Value)]) {
        lock.withLock {
            for (key, value) in values where fetches[key] == nil { fetches[key] = Task { value } }
        }
    }

    /// The value of `key`: fetched by `fetch` the first time, the same value every time after.
    func value(for key: Key, fetch: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = lock.withLock {
            if let running = fetches[key] { return running }
            let started = Task { try await fetch() }
            fetches[key] = started
            return started
        }
        do {
            // A step's timeout or a signal cancels the waiting task: the fetch stops with it.
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            lock.withLock { if fetches[key] == task { fetches[key] = nil } }
            throw error
        }
    }
}
