import Foundation
import RelayKit
import RelayRuntime
import RelayShortcuts
import Testing

@Suite("Reading shortcut files: bad input")
struct ShortcutReaderTests {
    /// The error reading (and importing) `data` gives.
    private func failure(_ data: Data) -> ShortcutError? {
        do {
            _ = try imported(data)
            return nil
        } catch let error as ShortcutError {
            return error
        } catch {
            return ShortcutError("\(error)")
        }
    }

    @Test("a file that is no property list, or no shortcut, is said to be so")
    func notAShortcut() throws {
        #expect(failure(Data("hello".utf8))?.message.hasPrefix("not a shortcut") == true)
        let empty = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
        #expect(failure(empty)?.message == "not a shortcut: the property list has no WFWorkflowActions list")
        let list = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .binary, options: 0)
        #expect(failure(list)?.message == "not a shortcut: the property list is not a dictionary")
        let signed = Data("AEA1".utf8) + Data(repeating: 0, count: 100)
        #expect(failure(signed)?.message == "not a readable signed shortcut: the file ends at byte 104: the 224 bytes from byte 12 need 132 more")
    }

    @Test("a truncated file is refused, XML or binary")
    func truncated() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/greeting.shortcut"))
        #expect(failure(xml.prefix(xml.count / 2))?.message.hasPrefix("not a readable property list") == true)
        let binary = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/tally.shortcut"))
        for cut in [binary.count - 10, binary.count / 2, 20] {
            #expect(failure(binary.prefix(cut)) != nil)
        }
    }

    @Test("10,000 levels of nesting are refused before the property list reader recurses, XML and binary")
    func deep() {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "</plist>"
        #expect(failure(Data(xml.utf8))?.message.contains("nests deeper than") == true)
        // Object i is an array holding object i + 1.
        let objects = (0..<10_000).map { $0 == 9_999 ? binaryArray([]) : binaryArray([$0 + 1]) }
        #expect(failure(binaryPropertyList(objects))?.message.contains("nests deeper than") == true)
        // An array that holds itself.
        #expect(failure(binaryPropertyList([binaryArray([0])]))?.message.contains("holds itself") == true)
        // A reference past the table.
        #expect(failure(binaryPropertyList([binaryArray([7])]))?.message.contains("not there") == true)
    }

    @Test("a set, a UID, and a dictionary keyed by other than texts are refused before Foundation reads them")
    func binaryOddities() {
        // A set of an empty dictionary: Foundation's reader crashed bridging it.
        let set = binaryPropertyList([[0xC1] + bigEndian(1, size: 4), [0xD0]])
        #expect(failure(set)?.message.contains("set, which no shortcut has") == true)
        let uid = binaryPropertyList([binaryArray([1]), [0x80, 0x01]])
        #expect(failure(uid)?.message.contains("UID") == true)
        let keyedByNumber = binaryPropertyList([[0xD1] + bigEndian(1, size: 4) + bigEndian(2, size: 4), [0x10, 0x07], [0xD0]])
        #expect(failure(keyedByNumber)?.message.contains("key is not a text") == true)
    }

    @Test("a binary list whose objects hold each other twice over is refused by the values it would make, not read")
    func sharedObjects() {
        // Object i is an array holding object i + 1 twice: 40 levels, 2^40 values once read.
        let objects = (0..<41).map { $0 == 40 ? [UInt8(0x50)] : binaryArray([$0 + 1, $0 + 1]) }
        #expect(failure(binaryPropertyList(objects))?.message.contains("more than \(Limits.shortcutValues) values") == true)
        // `<array >`, with a space, nests as `<array>` does.
        let spaced = "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array >", count: 10_000) + String(repeating: "</array>", count: 10_000) + "</plist>"
        #expect(failure(Data(spaced.utf8))?.message.contains("nests deeper than") == true)
    }

    @Test("a million actions are refused by count, before any is read")
    func millionActions() {
        let key = Array("WFWorkflowActions".utf8)
        let objects: [[UInt8]] = [
            [0xD1] + bigEndian(1, size: 4) + bigEndian(2, size: 4),
            [0x5F, 0x10, UInt8(key.count)] + key,
            binaryArray(Array(repeating: 3, count: 1_000_000)),
            [0xD0],
        ]
        #expect(failure(binaryPropertyList(objects))?.message == "the shortcut has 1000000 actions; at most \(Limits.shortcutActions) are read (Docs/Reliability.md, \"Limits\")")
    }

    @Test("a file over the limit is refused by its size, without being read")
    func huge() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).shortcut").path
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(truncate(path, 2 << 30) == 0)
        #expect(throws: ShortcutError.self) { try ShortcutSource.bytes(path) }
        #expect(throws: ShortcutError.self) { try Shortcut.read(Data(count: Limits.shortcutBytes + 1)) }
    }

    @Test("blocks that never end, end twice or end another's are located at their action")
    func unpaired() throws {
        let start = action("conditional", ["GroupingIdentifier": "G", "WFControlFlowMode": 0, "WFCondition": 100])
        let end = action("conditional", ["GroupingIdentifier": "G", "WFControlFlowMode": 2])
        #expect(failure(try shortcutData([action("gettext"), start]))?.description == "action 2: 'conditional' starts a block that never ends")
        #expect(failure(try shortcutData([start, end, end]))?.description == "action 3: 'conditional' ends a block that no action started")
        let other = action("repeat.count", ["GroupingIdentifier": "R", "WFControlFlowMode": 0])
        #expect(failure(try shortcutData([start, other, end]))?.action == 3)
        let mode = action("conditional", ["GroupingIdentifier": "G", "WFControlFlowMode": 7])
        #expect(failure(try shortcutData([mode]))?.description.contains("WFControlFlowMode is 7") == true)
    }

    @Test("a variable outside its text, or an output no action made, makes that action unmapped, located")
    func badReferences() throws {
        let outside: [String: Any] = [
            "WFSerializationType": "WFTextTokenString",
            "Value": ["string": "ab", "attachmentsByRange": ["{5, 1}": ["Type": "ExtensionInput"]]],
        ]
        let missing: [String: Any] = [
            "WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "ActionOutput", "OutputUUID": "NOPE", "OutputName": "Text"],
        ]
        let result = try imported(try shortcutData([action("gettext", ["WFTextActionText": outside]), action("text.changecase", ["text": missing])]))
        #expect(result.unmapped.map(\.number) == [1, 2])
        #expect(result.unmapped[0].reason.contains("outside its text"))
        #expect(result.unmapped[1].reason == "the output of an action that is not in the shortcut (Text)")
    }

    @Test("a signed shortcut, as the Shortcuts app shares one (LZVN and LZFSE inside), reads as the shortcut it signs", arguments: ["greeting", "menu"])
    func signed(name: String) throws {
        let signed = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/\(name)-signed.shortcut"))
        let unsigned = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/\(name).shortcut"))
        #expect(signed.starts(with: Array("AEA1".utf8)))
        #expect(try Shortcut.read(signed) == Shortcut.read(unsigned))
        // Made here, stored in segments of 1 KiB over several clusters, it reads the same.
        let archive = appleArchive([("Other.txt", Array("x".utf8)), ("Shortcut.wflow", Array(unsigned))])
        #expect(try Shortcut.read(signedShortcut(archive, segmentSize: 100)) == Shortcut.read(unsigned))
    }

    @Test("a damaged signed shortcut is refused, saying what is wrong, at every length it is cut to, and a change to its data never reads as another shortcut")
    func signedDamaged() throws {
        let signed = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/menu-signed.shortcut"))
        for cut in stride(from: 0, to: signed.count, by: 61) {
            #expect(failure(signed.prefix(cut)) != nil, "cut at \(cut)")
        }
        // The compressed data is the file's last 1,417 bytes: a change there is caught by LZFSE or by
        // the SHA-256, or changes nothing read (a bit LZFSE does not use): never another shortcut.
        var changed = signed
        let original = try Shortcut.read(signed)
        var caught = 0
        for index in stride(from: signed.count - 1, to: signed.count - 1_417, by: -7) {
            changed[index] ^= 0x5A
            if failure(changed) != nil { caught += 1 } else { #expect(try Shortcut.read(changed) == original, "byte \(index) changed") }
            changed[index] ^= 0x5A
        }
        #expect(caught > 190)
        #expect(try Shortcut.read(changed) == Shortcut.read(signed))
    }

    @Test("an encrypted archive, a size past the limit, a method Relay lacks, no Shortcut.wflow, or a signed file inside one are each said so")
    func signedRefused() throws {
        let unsigned = Array(try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/greeting.shortcut")))
        let archive = appleArchive([("Shortcut.wflow", unsigned)])
        #expect(failure(signedShortcut(archive, profile: 1))?.message.contains("is encrypted (profile 1)") == true)
        let huge = failure(signedShortcut(archive, originalSize: 1 << 40))?.message
        #expect(huge?.contains("1099511627776 bytes; a shortcut may have at most") == true, "\(huge ?? "")")
        // A size smaller than the segments hold: the segment is refused, not written past the end.
        #expect(failure(signedShortcut(archive, originalSize: 10))?.message.contains("a segment holds 1024 bytes, with only 10 of the archive left") == true)
        let lzma = failure(signedShortcut([UInt8](repeating: 1, count: 100), compression: "x", originalSize: 200))
        #expect(lzma?.message.contains("compressed with LZMA") == true, "\(lzma?.message ?? "")")
        let other = failure(signedShortcut(appleArchive([("Shortcut.plist", unsigned), ("notes.txt", [1])])))?.message
        #expect(other == "the signed file holds no Shortcut.wflow; it holds 'Shortcut.plist', 'notes.txt'")
        let nested = signedShortcut(appleArchive([("Shortcut.wflow", Array(signedShortcut(archive)))]))
        #expect(failure(nested)?.message.contains("it holds another signed file") == true)
    }

    @Test("an archive that holds Shortcut.wflow twice (in any case), as a folder, or named with more after a NUL, is refused; names are shown with their control characters escaped; past 10,000 entries it is refused")
    func signedArchiveNames() throws {
        let unsigned = Array(try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/greeting.shortcut")))
        let twice = failure(signedShortcut(appleArchive([("Shortcut.wflow", unsigned), ("shortcut.WFLOW", unsigned)])))?.message
        #expect(twice == "not a readable signed shortcut: its 'shortcut.WFLOW' is not a regular file named Shortcut.wflow", "\(twice ?? "")")
        let again = failure(signedShortcut(appleArchive([("Shortcut.wflow", unsigned), ("Shortcut.wflow", unsigned)])))?.message
        #expect(again == "not a readable signed shortcut: it holds Shortcut.wflow twice", "\(again ?? "")")
        // A folder of that name, with data.
        var folder = appleArchive([("Shortcut.wflow", unsigned)])
        folder[Array("AA01".utf8).count + 2 + 4] = UInt8(ascii: "D")
        #expect(failure(signedShortcut(folder))?.message.contains("is not a regular file named Shortcut.wflow") == true)
        // A name with more after a NUL is another name; a line break in a name is shown escaped.
        let other = failure(signedShortcut(appleArchive([("Shortcut.wflow\u{0}evil", unsigned), ("a\nerror: fake", [1])])))?.message
        #expect(other == "the signed file holds no Shortcut.wflow; it holds 'Shortcut.wflow\\u{0}evil', 'a\\u{a}error: fake'", "\(other ?? "")")
        var many = appleArchive([("Shortcut.wflow", unsigned)])
        many += [UInt8]((0...10_000).flatMap { _ in Array("AA01".utf8) + [6, 0] })
        #expect(failure(signedShortcut(many, segmentSize: 1 << 20))?.message.contains("holds more than 10000 entries") == true)
    }
}
