import Foundation

#if canImport(CryptoKit)
import CryptoKit
#endif

/// A SHA-256 digest, written as 64 hexadecimal digits: what pins a remembered grant to a
/// workflow's content and a trusted package to its files (Docs/Security.md, "How grants are kept").
/// A cryptographic hash, so that no edited workflow or package can pass for the one trusted.
///
/// On Linux it is OpenSSL's libcrypto (`libcrypto.so.3`, which libcurl already depends on), opened
/// with `dlopen` the first time a hash is needed, so that runs with nothing to compare do not load
/// it; on macOS, CryptoKit. Without libcrypto, `finish()` gives nil and nothing can be pinned.
struct ContentHash {
    #if canImport(CryptoKit)
    private var hasher = SHA256()
    #else
    private let context: OpaquePointer?
    #endif

    init() {
        #if !canImport(CryptoKit)
        context = LibCrypto.shared.flatMap { crypto in
            guard let context = crypto.newContext() else { return nil }
            guard crypto.initialize(context, crypto.sha256(), nil) == 1 else {
                crypto.freeContext(context)
                return nil
            }
            return context
        }
        #endif
    }

    mutating func update(_ data: Data) {
        #if canImport(CryptoKit)
        hasher.update(data: data)
        #else
        guard let context, let crypto = LibCrypto.shared else { return }
        data.withUnsafeBytes { bytes in _ = crypto.update(context, bytes.baseAddress, bytes.count) }
        #endif
    }

    mutating func update(_ text: String) { update(Data(text.utf8)) }

    /// The digest in hexadecimal; the hash is used up. Nil when no digest could be made.
    consuming func finish() -> String? {
        #if canImport(CryptoKit)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #else
        guard let context, let crypto = LibCrypto.shared else { return nil }
        defer { crypto.freeContext(context) }
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        guard crypto.finish(context, &digest, &length) == 1, length == 32 else { return nil }
        return digest.prefix(32).map { String(format: "%02x", $0) }.joined()
        #endif
    }

    /// The digest of `data`, or nil.
    static func of(_ data: Data) -> String? {
        var hash = ContentHash()
        hash.update(data)
        return hash.finish()
    }
}

#if !canImport(CryptoKit)
/// The six libcrypto functions a streamed SHA-256 needs, looked up once.
private struct LibCrypto: @unchecked Sendable {
    let newContext: @convention(c) () -> OpaquePointer?
    let sha256: @convention(c) () -> OpaquePointer?
    let initialize: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let update: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    let finish: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32
    let freeContext: @convention(c) (OpaquePointer?) -> Void

    static let shared: LibCrypto? = {
        let names: [String] = ["libcrypto.so.3", "libcrypto.so"]
        guard let library = names.lazy.compactMap({ (name: String) in dlopen(name, RTLD_NOW | RTLD_LOCAL) }).first else {
            return nil
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let newContext = symbol("EVP_MD_CTX_new", as: (@convention(c) () -> OpaquePointer?).self),
            let sha256 = symbol("EVP_sha256", as: (@convention(c) () -> OpaquePointer?).self),
            let initialize = symbol("EVP_DigestInit_ex", as: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32).self),
            let update = symbol("EVP_DigestUpdate", as: (@convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32).self),
            let finish = symbol(
                "EVP_DigestFinal_ex", as: (@convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32).self),
            let freeContext = symbol("EVP_MD_CTX_free", as: (@convention(c) (OpaquePointer?) -> Void).self)
        else { return nil }
        return LibCrypto(
            newContext: newContext, sha256: sha256, initialize: initialize, update: update, finish: finish, freeContext: freeContext)
    }()
}
#endif
