import Foundation
import RelayKit
import RelayEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `hash`: the digest of a text or a file.
struct Hash: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.hash", title: "Generate Hash", parameters: ["WFInput": "input", "WFHashType": "algorithm"],
            values: ["WFHashType": ["MD5": "md5", "SHA1": "sha1", "SHA256": "sha256"]], defaults: ["WFHashType": "MD5"]),
    ]
    static let summary =
        "Outputs the SHA-256, SHA-1 or MD5 digest of the input text (its UTF-8 bytes) or file, as lowercase hexadecimal text."
    static let examples = [
        IntentExample("- text: abc\n- hash", output: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        IntentExample("- text: abc\n- hash: md5", output: "900150983cd24fb0d6963f7d28e17f72"),
        IntentExample("- read-file: ~/Downloads/installer.iso\n- hash: sha256"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "A text, or a file (read in pieces, however large).", access: .read) var value: Value
    @Parameter(primary: true, summary: "The digest.", choices: ContentHash.Algorithm.allCases.map(\.rawValue))
    var algorithm: String = "sha256"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let algorithm = ContentHash.Algorithm(rawValue: algorithm.lowercased()) else {
            throw IntentError("'\(self.algorithm)' is not a digest; use sha256, sha1 or md5")
        }
        let digest: String?
        switch value {
        case .file(let file):
            digest = try await Self.digest(of: file, algorithm)
        case .list, .dictionary, .entity:
            throw IntentError("hash takes a text or a file, not \(value.type.withArticle)")
        default:
            digest = ContentHash.of(Data(value.textValue.utf8), algorithm)
        }
        guard let digest else {
            throw IntentError("no \(algorithm.rawValue) digest could be made: libcrypto (OpenSSL) is missing or refuses it")
        }
        return .value(.text(digest))
    }

    /// The digest of the file's bytes, read a megabyte at a time on a thread of its own, so that
    /// a large file neither fills memory nor holds up the run, and a `timeout:` stops it.
    static func digest(of file: FileReference, _ algorithm: ContentHash.Algorithm) async throws -> String? {
        try await BlockingWork.run { stop in
            let descriptor = try file.openForReading()
            defer { close(descriptor) }
            var hash = ContentHash(algorithm)
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while !stop.isRaised {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count == 0 { return hash.finish() }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw IntentError("cannot read '\(file.path)': \(String(cString: strerror(errno)))")
                }
                buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            }
            throw CancellationError()
        }
    }
}
