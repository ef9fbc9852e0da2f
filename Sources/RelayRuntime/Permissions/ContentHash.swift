import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
internal import CCrypto
#endif

/// A SHA-256 digest, written as 64 hexadecimal digits: what pins a remembered grant to a
/// workflow's content and a trusted package to its sources (Docs/Security.md, "How grants are kept").
/// A cryptographic hash, so that no edited workflow or package can pass for the one trusted.
struct ContentHash {
    #if canImport(CryptoKit)
    private var hasher = SHA256()
    #else
    private let context: OpaquePointer?
    #endif

    init() {
        #if !canImport(CryptoKit)
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
        #endif
    }

    mutating func update(_ data: Data) {
        #if canImport(CryptoKit)
        hasher.update(data: data)
        #else
        guard let context else { return }
        data.withUnsafeBytes { bytes in _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
        #endif
    }

    mutating func update(_ text: String) { update(Data(text.utf8)) }

    /// The digest; the hash is used up. Empty when libcrypto could not make one (out of memory),
    /// which matches no pin.
    consuming func finish() -> String {
        #if canImport(CryptoKit)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #else
        guard let context else { return "" }
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
        #endif
    }

    /// The digest of `data`.
    static func of(_ data: Data) -> String {
        var hash = ContentHash()
        hash.update(data)
        return hash.finish()
    }
}
