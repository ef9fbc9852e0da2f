import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

/// Grants kept between runs and trusted packages (Docs/Security.md, "How grants are kept"): each is
/// pinned to a SHA-256 of what it was given for, so an edit asks again.
@Suite("Remembered grants and trusted packages")
struct GrantStoreTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-grants-\(UUID().uuidString)")
    private var store: GrantStore { GrantStore(root: root.appendingPathComponent("state")) }

    @Test("SHA-256 gives the standard digests")
    func digests() {
        #expect(ContentHash.of(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentHash.of(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var streamed = ContentHash()
        for chunk in ["a", "b", "c"] { streamed.update(chunk) }
        #expect(streamed.finish() == ContentHash.of(Data("abc".utf8)))
    }

    /// A workflow that reads ~/x, with that read remembered for it.
    private func rememberedReadOfX() throws -> (workflow: URL, access: Access) {
        let workflow = root.appendingPathComponent("w.yaml")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "steps:\n  - read-file: ~/x\n".write(to: workflow, atomically: true, encoding: .utf8)
        let access = Access.read(HomeFolder.path + "/x")
        try store.remember(access, forWorkflow: workflow.path)
        return (workflow, access)
    }

    @Test("a workflow's grants hold while its content is the same; an edit drops them; revoke forgets them")
    func workflowGrants() throws {
        let (workflow, access) = try rememberedReadOfX()
        try store.remember(access, forWorkflow: workflow.path)
        #expect(store.grants(forWorkflow: workflow.path) == [access])
        try "steps:\n  - read-file: ~/x\n  - text: changed\n".write(to: workflow, atomically: true, encoding: .utf8)
        #expect(store.grants(forWorkflow: workflow.path).isEmpty)
        #expect(store.entry(forWorkflow: workflow.path)?.grants.count == 1)
        #expect(try store.revoke(workflow: workflow.path))
        #expect(store.entry(forWorkflow: workflow.path) == nil)
        #expect(try !store.revoke(workflow: workflow.path))
    }

    @Test("what is kept is its owner's alone: folders 0700, files 0600; a grant others may change is not believed, with the chmod that fixes it")
    func privateState() throws {
        let (workflow, access) = try rememberedReadOfX()
        let grants = store.root.appendingPathComponent("grants")
        let mode = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: grants.path).first).description
        #expect(mode(store.root.path) == 0o700 && mode(grants.path) == 0o700)
        #expect(mode(grants.appendingPathComponent(file).path) == 0o600)
        #expect(store.grants(forWorkflow: workflow.path) == [access] && store.refusal(forWorkflow: workflow.path) == nil)
        // A folder others may write to: whatever is in it may have been planted.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: grants.path)
        #expect(store.grants(forWorkflow: workflow.path).isEmpty)
        #expect(store.refusal(forWorkflow: workflow.path)?.contains("run chmod 700 \(grants.path)") == true, "\(store.refusal(forWorkflow: workflow.path) ?? "")")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: grants.path)
        // The file itself, writable by others: not believed either; written again, it is 0600.
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: grants.appendingPathComponent(file).path)
        #expect(store.grants(forWorkflow: workflow.path).isEmpty)
        #expect(store.refusal(forWorkflow: workflow.path)?.contains("(mode 0666)") == true)
        try store.remember(Access.read(HomeFolder.path + "/y"), forWorkflow: workflow.path)
        #expect(mode(grants.appendingPathComponent(file).path) == 0o600)
        // What was there was not believed, so it is not carried over.
        #expect(store.grants(forWorkflow: workflow.path) == [Access.read(HomeFolder.path + "/y")])
    }

    @Test("a package is trusted as its files are: a changed, added or linked file makes it untrusted; build output does not count")
    func packageTrust() throws {
        let package = root.appendingPathComponent("Kit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        try "// manifest\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "let a = 1\n".write(to: package.appendingPathComponent("Sources/Kit/A.swift"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        try store.trust(package: package.path)
        #expect(store.trusts(package: package.path))
        try FileManager.default.createDirectory(at: package.appendingPathComponent(".build/x"), withIntermediateDirectories: true)
        try "built".write(to: package.appendingPathComponent(".build/x/o"), atomically: true, encoding: .utf8)
        #expect(store.trusts(package: package.path))
        try "let a = 2\n".write(to: package.appendingPathComponent("Sources/Kit/A.swift"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        try store.trust(package: package.path)
        try "plugin".write(to: package.appendingPathComponent("Plugin.swift"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        try store.trust(package: package.path)
        // A link out of the package's folder: neither trusted nor trustable.
        let outside = package.appendingPathComponent("Sources/Kit/B.swift").path
        try FileManager.default.createSymbolicLink(atPath: outside, withDestinationPath: "/etc/hostname")
        #expect(!store.trusts(package: package.path))
        #expect(throws: FileOperationError.self) { try store.trust(package: package.path) }
        do {
            try store.trust(package: package.path)
        } catch {
            #expect(error.message.contains("is a symbolic link out of the package's folder"), "\(error.message)")
        }
        try FileManager.default.removeItem(atPath: outside)
        // A link inside it is followed: changing what it points to changes the package.
        try "let b = 1\n".write(to: package.appendingPathComponent("Shared.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: outside, withDestinationPath: "../../Shared.swift")
        try store.trust(package: package.path)
        #expect(store.trusts(package: package.path))
        try "let b = 2\n".write(to: package.appendingPathComponent("Shared.swift"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        try store.trust(package: package.path)
        // What a build writes does not count; the configuration SwiftPM reads does.
        try "{\"pins\": []}".write(to: package.appendingPathComponent("Package.resolved"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: package.appendingPathComponent(".swiftpm/xcode"), withIntermediateDirectories: true)
        try "x".write(to: package.appendingPathComponent(".swiftpm/xcode/state"), atomically: true, encoding: .utf8)
        #expect(store.trusts(package: package.path))
        try FileManager.default.createDirectory(at: package.appendingPathComponent(".swiftpm/configuration"), withIntermediateDirectories: true)
        try "{}".write(to: package.appendingPathComponent(".swiftpm/configuration/mirrors.json"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        #expect(try store.distrust(package: package.path))
        #expect(!store.trusts(package: package.path))
    }

    @Test("a package's digest is remembered with each file's status; any change to a file, even one that keeps size and time, is hashed again")
    func rememberedDigest() async throws {
        let package = root.appendingPathComponent("Kit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        try "let package = Package()\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let source = package.appendingPathComponent("Sources/Kit/K.swift")
        try "let k = 1\n".write(to: source, atomically: true, encoding: .utf8)
        let folder = root.appendingPathComponent("remembered")
        // Files made by the test are a moment old: remembered at once (normally, 2 s after a change).
        let remembered = PackageSources.Remembered(folder: folder, settling: -60)
        let computed = try PackageSources.hash(ofPackageAt: package.path, remembered: nil)
        #expect(try PackageSources.hash(ofPackageAt: package.path, remembered: remembered) == computed)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        // While every file's status is the same, the remembered digest is the answer (a forged
        // one here shows it is read).
        let memo = folder.appendingPathComponent(try #require(files.first))
        let forged = String(repeating: "0", count: 64)
        let text = try String(contentsOf: memo, encoding: .utf8).replacingOccurrences(of: computed, with: forged)
        try text.write(to: memo, atomically: true, encoding: .utf8)
        #expect(try PackageSources.hash(ofPackageAt: package.path, remembered: remembered) == forged)
        // The same size, the modification time put back: the status-change time still tells
        // (once the file system's clock has ticked: it may count in hundredths of a second).
        try await Task.sleep(for: .milliseconds(50))
        var before = stat()
        #expect(stat(source.path, &before) == 0)
        let handle = try FileHandle(forWritingTo: source)
        try handle.write(contentsOf: Data("let k = 2\n".utf8))
        try handle.close()
        #if canImport(Darwin)
            let modified = before.st_mtimespec
        #else
            let modified = before.st_mtim
        #endif
        let times = [modified, modified]
        #expect(utimensat(AT_FDCWD, source.path, times, 0) == 0)
        let changed = try PackageSources.hash(ofPackageAt: package.path, remembered: remembered)
        #expect(changed != forged && changed != computed)
        #expect(changed == (try PackageSources.hash(ofPackageAt: package.path, remembered: nil)))
        // A file changed a moment ago is not remembered: its clock tick may not be over.
        let recent = PackageSources.Remembered(folder: root.appendingPathComponent("recent"))
        _ = try PackageSources.hash(ofPackageAt: package.path, remembered: recent)
        #expect(!FileManager.default.fileExists(atPath: recent.folder.path))
    }

    @Test("a package's trust covers the sources of its local path dependencies, not their build output")
    func pathDependencies() throws {
        let dependency = root.appendingPathComponent("Dep")
        try FileManager.default.createDirectory(at: dependency.appendingPathComponent("Sources/Dep"), withIntermediateDirectories: true)
        try "// dependency\n".write(to: dependency.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "let d = 1\n".write(to: dependency.appendingPathComponent("Sources/Dep/D.swift"), atomically: true, encoding: .utf8)
        let package = root.appendingPathComponent("Kit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Kit"), withIntermediateDirectories: true)
        try "let package = Package(dependencies: [.package(name: \"Dep\", path: \"../Dep\")])\n".write(
            to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        #expect(PackageSources.localDependencies(of: package.path) == [dependency.path])
        try store.trust(package: package.path)
        try FileManager.default.createDirectory(at: dependency.appendingPathComponent(".build"), withIntermediateDirectories: true)
        try "built".write(to: dependency.appendingPathComponent(".build/o"), atomically: true, encoding: .utf8)
        try "notes".write(to: dependency.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        #expect(store.trusts(package: package.path))
        try "let d = 2\n".write(to: dependency.appendingPathComponent("Sources/Dep/D.swift"), atomically: true, encoding: .utf8)
        #expect(!store.trusts(package: package.path))
        // The build's fingerprint is the same hash: a changed dependency is built again.
        let before = try PackageBuilder.fingerprint(ofPackageAt: package.path)
        try "let d = 3\n".write(to: dependency.appendingPathComponent("Sources/Dep/D.swift"), atomically: true, encoding: .utf8)
        #expect(try PackageBuilder.fingerprint(ofPackageAt: package.path) != before)
    }
}
