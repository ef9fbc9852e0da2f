import Foundation
import RelayKit

extension ProgramOutcome {
    /// The step error for a program that did not succeed: `what` happened, then the end of what it
    /// wrote to standard error (at most `limit` characters), which says why.
    public func failure(_ what: String, limit: Int = 1_000) -> IntentError {
        // A program given a secret may say it in any form: what it said is made from the secret.
        if !RunSecrets.carried.isEmpty || !(RunSecrets.stepReads?.all.isEmpty ?? true), !errors.isEmpty {
            return IntentError(what + " (what it wrote to standard error is not shown: it was given a secret, \(RunSecrets.mask))")
        }
        let said = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return IntentError(what + (said.isEmpty ? "" : ": \(Excerpt.end(of: said, limit: limit))"))
    }
}
