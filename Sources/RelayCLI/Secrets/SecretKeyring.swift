internal import CSecretService
import Foundation

/// The system keyring, through the Secret Service's library (libsecret), opened when first used
/// (Docs/Runs.md, "Secrets"). Only where the session has a message bus and the library is there;
/// `RELAY_KEYRING=off` keeps Relay to the environment and its secrets file.
struct SecretKeyring: Sendable {
    /// The keyring of this session, or nil when it has none.
    static func session(environment: [String: String] = ProcessInfo.processInfo.environment) -> SecretKeyring? {
        guard environment["RELAY_KEYRING"]?.lowercased() != "off" else { return nil }
        let bus =
            environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty }
            ?? environment["XDG_RUNTIME_DIR"].map { FileManager.default.fileExists(atPath: $0 + "/bus") } ?? false
        guard bus, relay_secret_service_load() == 1 else { return nil }
        return SecretKeyring()
    }

    /// The value kept for `name`; nil when there is none, or when the keyring cannot answer
    /// (no Secret Service running): then the secrets file is looked in.
    func lookup(_ name: String) -> Result<String?, SecretStoreError> {
        var problem: UnsafeMutablePointer<CChar>?
        let found = relay_secret_service_lookup(name, &problem)
        defer {
            relay_secret_service_free(found)
            relay_secret_service_free(problem)
        }
        return .success(found.map { String(cString: $0) })
    }

    func store(_ name: String, value: String) -> Result<Void, SecretStoreError> {
        var problem: UnsafeMutablePointer<CChar>?
        let stored = relay_secret_service_store(name, value, &problem)
        defer { relay_secret_service_free(problem) }
        guard stored == 1 else { return .failure(Self.error(problem, doing: "keep '\(name)' in")) }
        return .success(())
    }

    /// Whether something was removed.
    func remove(_ name: String) -> Result<Bool, SecretStoreError> {
        var problem: UnsafeMutablePointer<CChar>?
        let removed = relay_secret_service_clear(name, &problem)
        defer { relay_secret_service_free(problem) }
        guard removed >= 0 else { return .failure(Self.error(problem, doing: "remove '\(name)' from")) }
        return .success(removed == 1)
    }

    func names() -> Result<[String], SecretStoreError> {
        var problem: UnsafeMutablePointer<CChar>?
        let names = relay_secret_service_names(&problem)
        defer {
            relay_secret_service_free(names)
            relay_secret_service_free(problem)
        }
        guard let names else { return .failure(Self.error(problem, doing: "list the secrets in")) }
        return .success(String(cString: names).split(separator: "\n").map(String.init))
    }

    private static func error(_ problem: UnsafeMutablePointer<CChar>?, doing what: String) -> SecretStoreError {
        let why = problem.map { String(cString: $0) } ?? "it did not answer"
        return SecretStoreError("cannot \(what) the system keyring: \(why); set RELAY_KEYRING=off to keep secrets in Relay's secrets file instead")
    }
}
