extension StringProtocol {
    /// The text between line feeds, found among Unicode scalars. Swift takes CR LF for one
    /// character, so splitting characters at "\n" — and, on Linux, Foundation's
    /// `components(separatedBy: "\n")` — leaves text with CR LF line ends in one piece. A CR before
    /// a line feed stays at the end of its line.
    package func splitAtLineFeeds(omittingEmpty: Bool = false) -> [String] {
        unicodeScalars.split(separator: "\n", omittingEmptySubsequences: omittingEmpty).map { String(String.UnicodeScalarView($0)) }
    }
}
