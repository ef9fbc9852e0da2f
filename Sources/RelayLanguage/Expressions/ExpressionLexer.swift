/// A token of the `${ }` expression language, with its character offset in the expression text.
struct ExpressionToken {
    enum Kind: Hashable {
        case number(Double)
        case string(String)
        case identifier(String)
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int
    var length: Int
}

/// An expression that could not be read, with the character offset of the problem.
struct ExpressionSyntaxError: Error {
    var message: String
    var offset: Int
    var length: Int
}

/// Splits expression text into tokens.
enum ExpressionLexer {
    private static let twoCharacterSymbols: Set<String> = ["==", "!=", "<=", ">="]
    private static let threeCharacterSymbols: Set<String> = ["===", "!=="]
    private static let oneCharacterSymbols: Set<Character> = ["+", "-", "*", "/", "%", "<", ">", "(", ")", "[", "]", ".", ","]

    static func tokens(_ text: String) throws(ExpressionSyntaxError) -> [ExpressionToken] {
        let characters = Array(text)
        var tokens: [ExpressionToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
                continue
            }
            let start = index
            if character.isNumber && character.isASCII {
                while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                if index + 1 < characters.count, characters[index] == ".", characters[index + 1].isNumber {
                    index += 1
                    while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                }
                let number = Double(String(characters[start..<index])) ?? 0
                tokens.append(ExpressionToken(kind: .number(number), offset: start, length: index - start))
            } else if character == "'" || character == "\"" {
                index += 1
                var text = ""
                while index < characters.count, characters[index] != character {
                    // A backslash escapes only the quote and itself, so regular expressions keep theirs (\d).
                    if characters[index] == "\\", index + 1 < characters.count,
                        characters[index + 1] == character || characters[index + 1] == "\\"
                    {
                        index += 1
                    }
                    text.append(characters[index])
                    index += 1
                }
                guard index < characters.count else {
                    throw ExpressionSyntaxError(message: "unterminated text literal", offset: start, length: index - start)
                }
                index += 1
                tokens.append(ExpressionToken(kind: .string(text), offset: start, length: index - start))
            } else if character.isLetter || character == "_" {
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    index += 1
                }
                tokens.append(
                    ExpressionToken(kind: .identifier(String(characters[start..<index])), offset: start, length: index - start))
            } else if index + 2 < characters.count,
                threeCharacterSymbols.contains(String(characters[index...index + 2]))
            {
                tokens.append(
                    ExpressionToken(kind: .symbol(String(characters[index...index + 2])), offset: start, length: 3))
                index += 3
            } else if index + 1 < characters.count,
                twoCharacterSymbols.contains(String(characters[index...index + 1]))
            {
                tokens.append(
                    ExpressionToken(kind: .symbol(String(characters[index...index + 1])), offset: start, length: 2))
                index += 2
            } else if oneCharacterSymbols.contains(character) {
                tokens.append(ExpressionToken(kind: .symbol(String(character)), offset: start, length: 1))
                index += 1
            } else if character == "=" {
                throw ExpressionSyntaxError(message: "'=' is not an operator; use '==' to compare", offset: start, length: 1)
            } else if character == "&" || character == "|" || character == "!" {
                let word = character == "&" ? "and" : character == "|" ? "or" : "not"
                throw ExpressionSyntaxError(message: "'\(character)' is not an operator; use '\(word)'", offset: start, length: 1)
            } else {
                throw ExpressionSyntaxError(message: "unexpected character '\(character)'", offset: start, length: 1)
            }
        }
        tokens.append(ExpressionToken(kind: .end, offset: characters.count, length: 0))
        return tokens
    }
}
