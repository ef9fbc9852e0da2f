import CLazyLibraries
import Foundation
import Testing

/// The libraries opened when first used (Docs/Architecture.md, "Libraries opened when first
/// used"): a missing library or function is a message, and the table is filled only whole.
@Suite struct LazyLibrariesTests {
    /// Runs `relay_open_files` for `names` in the first of `files`, returning its message and the table.
    private func open(_ files: [String], _ names: [String]) -> (String?, [UnsafeMutableRawPointer?]) {
        let sentinel = UnsafeMutableRawPointer(bitPattern: 0x1)
        var table = [UnsafeMutableRawPointer?](repeating: sentinel, count: names.count)
        var message = [CChar](repeating: 0, count: 512)
        let fileNames = files.map { strdup($0) } + [nil]
        let functionNames = names.map { strdup($0) }
        defer { (fileNames + functionNames).forEach { free($0) } }
        let result = fileNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { filesPointer in
            functionNames.map { UnsafePointer($0) }.withUnsafeBufferPointer { namesPointer in
                table.withUnsafeMutableBufferPointer { tablePointer in
                    relay_open_files(
                        "testing", filesPointer.baseAddress, namesPointer.baseAddress, tablePointer.baseAddress, Int32(names.count),
                        &message, message.count)
                }
            }
        }
        return (result.map { String(cString: $0) }, table)
    }

    @Test func aMissingLibraryIsNamed() {
        let (message, table) = open(["libno-such-library.so.9", "libno-such-library.so"], ["cos"])
        #expect(message == "testing needs libno-such-library.so.9, which is not installed (Scripts/install-dependencies installs it)")
        #expect(table == [UnsafeMutableRawPointer(bitPattern: 0x1)])
    }

    @Test func aMissingFunctionRefusesTheWholeLibrary() {
        let (message, table) = open(["libm.so.6"], ["cos", "relay_no_such_function"])
        #expect(message == "testing: the installed library has no 'relay_no_such_function'")
        #expect(table.allSatisfy { $0 == UnsafeMutableRawPointer(bitPattern: 0x1) })
    }

    @Test func theFirstFileFoundIsUsed() throws {
        let (message, table) = open(["libno-such-library.so.9", "libm.so.6"], ["cos", "sqrt"])
        #expect(message == nil)
        let cosine = unsafeBitCast(try #require(table[0]), to: (@convention(c) (Double) -> Double).self)
        let root = unsafeBitCast(try #require(table[1]), to: (@convention(c) (Double) -> Double).self)
        #expect(cosine(0) == 1)
        #expect(root(16) == 4)
    }

    @Test func relaysOwnLibrariesOpen() {
        #expect(relay_open_graphics() == nil)
        #expect(relay_open_jpeg() == nil)
        #expect(relay_open_markdown() == nil)
    }
}
