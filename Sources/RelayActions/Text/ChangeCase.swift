import Foundation
import RelayKit

/// `change-case`: upper, lower or title case.
struct ChangeCase: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.changecase", title: "Change Case", parameters: ["WFInput": "input", "text": "input", "WFCaseType": "to"],
            values: [
                "WFCaseType": [
                    "UPPERCASE": "upper", "lowercase": "lower", "Capitalize Every Word": "title", "Capitalize with sentence case": "sentence",
                    "cAlTeRnAtInG cAsE": "alternating",
                ]
            ],
            defaults: ["WFCaseType": "UPPERCASE"]),
    ]
    static let summary = "Changes the input to upper case, lower case, title case (every word capitalized), sentence case or alternating case."
    static let examples = [
        IntentExample("- text: the quick brown fox\n- change-case: title", output: "The Quick Brown Fox"),
        IntentExample("- text: \"HELLO THERE. HOW ARE YOU?\"\n- change-case: sentence", output: "Hello there. How are you?"),
        IntentExample("- text: relay runs shortcuts\n- change-case: alternating", output: "rElAy RuNs ShOrTcUtS"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The text to change.") var text: String
    @Parameter(primary: true, summary: "The case to change to.", choices: ["upper", "lower", "title", "sentence", "alternating"])
    var to: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        switch to.lowercased() {
        case "upper": return .value(.text(text.uppercased()))
        case "lower": return .value(.text(text.lowercased()))
        case "sentence": return .value(.text(Self.sentenceCase(text)))
        case "alternating": return .value(.text(Self.alternatingCase(text)))
        default: return .value(.text(text.capitalized))
        }
    }

    /// Lower case, with the first letter of each sentence (after `.`, `!`, `?` and the start) upper.
    static func sentenceCase(_ text: String) -> String {
        var out = "", startsSentence = true
        for character in text.lowercased() {
            if startsSentence, character.isLetter {
                out += character.uppercased()
                startsSentence = false
            } else {
                out.append(character)
            }
            if [".", "!", "?", "…"].contains(character) { startsSentence = true }
        }
        return out
    }

    /// Letters lower and upper in turn, starting lower; what is not a letter keeps its place.
    static func alternatingCase(_ text: String) -> String {
        var out = "", upper = false
        for character in text {
            guard character.isLetter else {
                out.append(character)
                continue
            }
            out += upper ? character.uppercased() : character.lowercased()
            upper.toggle()
        }
        return out
    }
}
