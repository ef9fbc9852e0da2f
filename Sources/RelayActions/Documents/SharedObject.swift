import Foundation
import RelayKit

/// A shared object: a C library opened with `dlopen` the first time an action needs it, rather than linked: poppler
/// and libxml2 bring some twenty libraries (NSS, TIFF, ICU …) whose loading would otherwise slow
/// every run's start, though few runs read PDFs or HTML.
public final class SharedObject: @unchecked Sendable {
    private let names: [String]
    private let purpose: String
    private let lock = NSLock()
    private var handle: UnsafeMutableRawPointer?
    private var failure: String?

    /// `names` are tried in order (Debian's versioned name first, then unversioned and macOS names).
    public init(names: [String], purpose: String) {
        self.names = names
        self.purpose = purpose
    }

    /// The function `symbol` as a C function of type `T`, opening the library if needed.
    public func function<T>(_ symbol: String, as type: T.Type) throws -> T {
        let address = try self.address(of: symbol)
        return unsafeBitCast(address, to: type)
    }

    /// The address of `symbol` in the library.
    public func address(of symbol: String) throws -> UnsafeMutableRawPointer {
        let handle = try open()
        guard let address = dlsym(handle, symbol) else {
            throw IntentError("\(purpose): the library has no '\(symbol)'")
        }
        return address
    }

    private func open() throws -> UnsafeMutableRawPointer {
        lock.lock()
        defer { lock.unlock() }
        if let handle { return handle }
        if let failure { throw IntentError(failure) }
        for name in names {
            if let opened = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                handle = opened
                return opened
            }
        }
        let message = "\(purpose) needs \(names[0]), which is not installed (Scripts/install-dependencies installs it)"
        failure = message
        throw IntentError(message)
    }
}
