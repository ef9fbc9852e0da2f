/// Where bytes stop being UTF-8.
public enum UTF8Validation {
    /// The offset of the first byte that is not part of a well-formed UTF-8 character (an
    /// overlong form, a surrogate, a stray continuation byte, a sequence cut short), or nil when
    /// all of `bytes` is UTF-8. Decided by the standard library's own UTF-8 parser.
    public static func firstInvalidByte(in bytes: some Sequence<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
