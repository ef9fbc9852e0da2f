/// Words of a command line that Relay prints for people to run (the flags that grant what a run
/// needs, `relay package trust PATH`), quoted so that a POSIX shell reads each back as one word.
public enum ShellQuoting {
    /// `word` unchanged when every character is one a shell takes literally (letters, digits and
    /// `@%+=:,./_~-`, a `~` only where Relay itself expands it), else in single quotes, with each
    /// single quote written `'\''`.
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (isAlphanumeric(scalar) || "@%+=:,./_~-".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `--allow-read=VALUE` with the value quoted as `quoted` does, or the flag alone without one.
    public static func flag(_ name: String, _ value: String?) -> String {
        value.map { "\(name)=\(quoted($0))" } ?? name
    }
}

extension ShellQuoting {
    fileprivate static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
