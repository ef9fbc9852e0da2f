import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

extension Interpreter {
    /// The run's conversions: the converters and entity types of every loaded package.
    var conversions: Conversions { environment.loader.registry.conversions }

    /// `value` as the workflow's declared input or output type (`at`: the declaration), through the
    /// run's conversions, as a parameter would take it. Relative paths resolve against `base`
    /// (nil: the working folder).
    func converted(_ value: Value, to type: ValueType, declaredAt range: SourceRange, as role: String, relativeTo base: URL?) async throws -> Value {
        let step = PlannedStep(
            kind: .stop(nil), displayName: role, range: range, outputVariable: nil, input: nil, condition: nil, onError: nil, timeout: nil)
        do {
            return try await conversions.convert(value, to: ConversionTarget(type), in: StepContext(interpreter: self, step: step, base: base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)))
        } catch let error as RuntimeError {
            throw error
        } catch {
            if let denial = environment.gate.takeDenial() { throw RuntimeError(denial, step: role, at: range) }
            throw RuntimeError("the workflow's \(role): \(Self.message(for: error))", at: range)
        }
    }
}
