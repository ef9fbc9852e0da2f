import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// Carries out the undos that intents registered (`relay undo`): loads the intent's package if it
/// came from a path — only while its sources are the ones that registered the undo, which the run
/// that did so built and ran (Docs/Security.md, "Packages") — finds the action, and performs it with
/// the recorded arguments, with no one to ask and nothing recorded.
public struct IntentUndoer: Sendable {
    private let registry: ActionRegistry
    private let packages: LoadedPackages

    /// `registry` holds the built-in and linked actions; packages from paths are loaded into
    /// `packages` as needed.
    public init(registry: ActionRegistry, packages: LoadedPackages = LoadedPackages()) {
        self.registry = registry
        self.packages = packages
    }

    public func perform(package: String?, packageHash: String?, action: String, arguments: ValueDictionary) async throws {
        var registry = registry
        var hosted: HostedPackage?
        if let package {
            // Nothing of a package is built or run unless it is what it was, or trusted as it is now.
            let now = try? PackageSources.hash(ofPackageAt: package)
            guard let now, now == packageHash || (packageHash == nil && GrantStore().trusts(package: package)) else {
                throw IntentError(
                    "the package '\(ResolvedPath.abbreviated(package))' changed since it registered this undo, so it is not built or run: "
                        + "undo what '\(action)' did by hand, or put the package back as it was")
            }
            let loaded = try await packages.package(at: package) { _ in }
            try registry.register(hosted: loaded)
            hosted = loaded
        }
        guard let definition = registry.action(named: action) else {
            throw IntentError("the action '\(action)' that would undo this is not available")
        }
        try await registry.declarations.using { try await perform(definition, arguments: arguments, hosted: hosted, registry: registry) }
    }

    private func perform(_ definition: ActionDefinition, arguments: ValueDictionary, hosted: HostedPackage?, registry: ActionRegistry) async throws {
        var values: [Value?] = []
        for parameter in definition.parameters {
            guard let wired = arguments[parameter.name] else {
                values.append(nil)
                continue
            }
            if let hosted {
                values.append(try await hosted.decode(wired))
            } else {
                values.append(try await decode(wired, with: registry.entityTypes))
            }
        }
        let context = UndoContext(conversions: registry.conversions)
        for (index, parameter) in definition.parameters.enumerated() {
            guard let value = values[index] else { continue }
            values[index] = try await registry.conversions.convert(value, to: ConversionTarget(parameter: parameter), in: context)
        }
        _ = try await definition.perform(arguments: values, context: context)
    }

    /// A value from the journal: entities of built-in or linked types are found again by id.
    private func decode(_ wired: Value, with types: EntityCatalog) async throws -> Value {
        try await WireValue.decode(wired) { entity in
            guard let descriptor = types.descriptor(named: entity.type), let found = try await descriptor.entities(for: [entity.id]).first else {
                throw IntentError("the \(entity.type) '\(entity.title)' to undo is gone")
            }
            return .entity(found)
        }
    }
}

/// What an intent performed by `relay undo` sees: no one to ask, nothing shown or recorded.
struct UndoContext: IntentContext {
    let conversions: Conversions
    var entityTypes: EntityCatalog { conversions.entityTypes }
    var mode: RunMode { .background }
    var baseDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }
    var fileChanges: any FileChanges { PlainFileChanges() }
    var scratchFolder: ScratchFolder { ScratchFolder() }

    func show(_ value: Value) async {}
    func ask(_ question: Question) async throws -> Value {
        guard let defaultValue = question.defaultValue else { throw IntentError("an undo cannot ask '\(question.prompt)'") }
        return defaultValue
    }
    func choose(_ request: ChoiceRequest) async throws -> [Int] { throw IntentError("an undo cannot ask '\(request.prompt)'") }
    /// Asking for `relay undo` is the confirmation.
    func requestConfirmation(_ prompt: String) async throws {}
    func open(_ url: URL) async throws {}
    func convert(_ value: Value, to representation: Representation) async throws -> Value {
        try await conversions.convert(value, to: ConversionTarget(representation), in: self)
    }
    func runWorkflow(at path: String, input: Value) async throws -> Value { throw IntentError("an undo cannot run workflows") }
    func reportProgress(_ fraction: Double, _ label: String?) async {}
    func registerUndo(action: String, arguments: ValueDictionary) async throws {}
}
