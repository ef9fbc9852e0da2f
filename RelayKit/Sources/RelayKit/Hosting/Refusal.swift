import Foundation

extension Access {
    /// The file access the system refused (EACCES or EPERM), when that is why `error` happened
    /// and the error names the file: a confined host's report to Relay of what the kernel stopped
    /// (Docs/PackageProtocol.md, "Errors").
    static func refusal(in error: any Error) -> Access? {
        if let error = error as? FileOperationError { return error.refusal }
        var current: NSError? = error as NSError
        // Foundation wraps the system's error; look through at most a few layers.
        for _ in 0..<4 {
            guard let error = current else { return nil }
            let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
            if let path {
                if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileReadNoPermission.rawValue { return .read(path) }
                if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteNoPermission.rawValue { return .write(path) }
                if error.domain == NSPOSIXErrorDomain, error.code == Int(EACCES) || error.code == Int(EPERM) { return .read(path) }
            }
            current = error.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return nil
    }
}
