import Foundation
import RelayKit

#if canImport(CryptoKit)
import CryptoKit
#endif

/// A cryptographic digest, written in lowercase hexadecimal: SHA-256 pins a remembered grant to a
/// workflow's content and a trusted package to its files (Docs/Security.md, "How grants are kept"),
/// so that no edited workflow or package can pass for the one trusted; the `hash` action offers
/// SHA-1 and MD5 too, for checking downloads against the sums people publish.
///
/// On Linux it is OpenSSL's libcrypto (`libcrypto.so.3`, which libcurl already depends on), opened
/// with `dlopen` the first time a hash is needed, so that runs with nothing to compare do not load
/// it; on macOS, CryptoKit. Without libcrypto, `finish()` gives nil and nothing can be pinned.
public struct ContentHash {
    /// The digests Relay makes.
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha256, sha1, md5

        /// How many bytes the digest has.
        var length: Int {
            switch self {
            case .sha256: 32
            case .sha1: 20
            case .md5: 16
            }
        }
    }

    public let algorithm: Algorithm
    #if canImport(CryptoKit)
    private var sha256 = SHA256()
    private var sha1 = Insecure.SHA1()
    private var md5 = Insecure.MD5()
    #else
    private let context: OpaquePointer?
    #endif

    public init(_ algorithm: Algorithm = .sha256) {
        self.algorithm = algorithm
        #if !canImport(CryptoKit)
        context = LibCrypto.shared.flatMap { crypto in
            guard let context = crypto.newContext() else { return nil }
            let digest: OpaquePointer? =
                switch algorithm {
                case .sha256: crypto.sha256()
                case .sha1: crypto.sha1()
                case .md5: crypto.md5()
                }
            guard digest != nil, crypto.initialize(context, digest, nil) == 1 else {
                crypto.freeContext(context)
                return nil
            }
            return context
        }
        #endif
    }

    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        switch algorithm {
        case .sha256: sha256.update(bufferPointer: bytes)
        case .sha1: sha1.update(bufferPointer: bytes)
        case .md5: md5.update(bufferPointer: bytes)
        }
        #else
        guard let context, let crypto = LibCrypto.shared else { return }
        _ = crypto.update(context, bytes.baseAddress, bytes.count)
        #endif
    }

    public mutating func update(_ text: String) { update(Data(text.utf8)) }

    /// The digest in hexadecimal; the hash is used up. Nil when no digest could be made.
    public consuming func finish() -> String? {
        #if canImport(CryptoKit)
        let digest: [UInt8] =
            switch algorithm {
            case .sha256: Array(sha256.finalize())
            case .sha1: Array(sha1.finalize())
            case .md5: Array(md5.finalize())
            }
        return digest.map { String(format: "%02x", $0) }.joined()
        #else
        guard let context, let crypto = LibCrypto.shared else { return nil }
        defer { crypto.freeContext(context) }
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        guard crypto.finish(context, &digest, &length) == 1, Int(length) == algorithm.length else { return nil }
        return digest.prefix(algorithm.length).map { String(format: "%02x", $0) }.joined()
        #endif
    }

    /// The digest of `data`, or nil.
    public static func of(_ data: Data, _ algorithm: Algorithm = .sha256) -> String? {
        var hash = ContentHash(algorithm)
        hash.update(data)
        return hash.finish()
    }
}

#if !canImport(CryptoKit)
/// The libcrypto functions a streamed digest needs, looked up once.
private struct LibCrypto: @unchecked Sendable {
    typealias Digest = @convention(c) () -> OpaquePointer?
    let newContext: @convention(c) () -> OpaquePointer?
    let sha256: Digest
    let sha1: Digest
    let md5: Digest
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
            let sha256 = symbol("EVP_sha256", as: Digest.self),
            let sha1 = symbol("EVP_sha1", as: Digest.self),
            let md5 = symbol("EVP_md5", as: Digest.self),
            let initialize = symbol("EVP_DigestInit_ex", as: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32).self),
            let update = symbol("EVP_DigestUpdate", as: (@convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32).self),
            let finish = symbol(
                "EVP_DigestFinal_ex", as: (@convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32).self),
            let freeContext = symbol("EVP_MD_CTX_free", as: (@convention(c) (OpaquePointer?) -> Void).self)
        else { return nil }
        return LibCrypto(
            newContext: newContext, sha256: sha256, sha1: sha1, md5: md5, initialize: initialize, update: update,
            finish: finish, freeContext: freeContext)
    }()
}
#endif
