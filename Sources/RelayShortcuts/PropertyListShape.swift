import RelayKit

/// A look at a property list's nesting before Foundation reads it: Foundation's readers recurse
/// once a level, so a file nested 100,000 levels deep would exhaust the stack. It reads no value,
/// only the structure: the tags of an XML property list, the object table of a binary one.
enum PropertyListShape {
    /// Throws when `bytes` nest deeper than `limit`, or when a binary property list's objects
    /// refer outside the table or to themselves.
    static func check(_ bytes: [UInt8], limit: Int = Limits.shortcutDepth) throws(ShortcutError) {
        if bytes.starts(with: Array("bplist00".utf8)) {
            try checkBinary(bytes, limit: limit)
        } else {
            try checkXML(bytes, limit: limit)
        }
    }

    /// Counts `<array>`, `<dict>` against their ends. Tags inside comments and CDATA are counted
    /// too: that can only make a file look deeper than it is, never shallower.
    private static func checkXML(_ bytes: [UInt8], limit: Int) throws(ShortcutError) {
        var depth = 0, index = 0, values = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = closing ? index + 2 : index + 1
            var end = nameStart
            while end < count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            guard end < count else { break }
            let selfClosing = end > nameStart && bytes[end - 1] == UInt8(ascii: "/")
            // The name ends at the first space (`<array >` is an array too).
            let tag = bytes[nameStart..<(selfClosing ? end - 1 : end)]
            let name = tag.prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if name.elementsEqual("array".utf8) || name.elementsEqual("dict".utf8), !selfClosing {
                depth += closing ? -1 : 1
                if depth > limit { throw ShortcutError.tooDeep(limit) }
            }
            if !closing {
                values += 1
                if values > Limits.shortcutValues { throw ShortcutError.tooMany() }
            }
            index = end + 1
        }
    }

    /// Walks the object table from the top object, each object once, keeping the height of what
    /// is under each: an object under itself, or a reference outside the table, is an error.
    private static func checkBinary(_ bytes: [UInt8], limit: Int) throws(ShortcutError) {
        let count = bytes.count
        guard count >= 8 + 32 else { throw ShortcutError.damaged("a binary property list shorter than its trailer") }
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        let objects = number(bytes, at: trailer + 8, size: 8), top = number(bytes, at: trailer + 16, size: 8)
        let table = number(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), let objects, let top, let table,
            objects > 0, objects <= UInt64(count), top < objects, table >= 8,
            table <= UInt64(trailer),
            objects * UInt64(offsetSize) <= UInt64(trailer) - table
        else { throw ShortcutError.damaged("a binary property list whose trailer does not fit the file") }
        let objectCount = Int(objects), tableStart = Int(table)

        func offset(of object: Int) throws(ShortcutError) -> Int {
            guard let value = number(bytes, at: tableStart + object * offsetSize, size: offsetSize), value >= 8, value < UInt64(tableStart) else {
                throw ShortcutError.damaged("a binary property list object outside the file")
            }
            return Int(value)
        }
        /// The objects an array, set or dictionary at `start` refers to; none for other objects.
        func children(at start: Int) throws(ShortcutError) -> [Int] {
            let marker = bytes[start], kind = marker >> 4
            // Sets and archivers' UIDs are in no shortcut, and Foundation's reader crashes on a set
            // of what cannot be hashed.
            guard kind != 0xC, kind != 0x8 else { throw ShortcutError.damaged("a binary property list \(kind == 0xC ? "set" : "UID"), which no shortcut has") }
            guard kind == 0xA || kind == 0xD else { return [] }
            var length = Int(marker & 0x0F), cursor = start + 1
            if length == 0x0F {
                guard cursor < tableStart, bytes[cursor] >> 4 == 0x1 else { throw ShortcutError.damaged("a binary property list count that is not a number") }
                let size = 1 << Int(bytes[cursor] & 0x0F)
                guard size <= 8, let value = number(bytes, at: cursor + 1, size: size), value <= UInt64(count) else {
                    throw ShortcutError.damaged("a binary property list count larger than the file")
                }
                length = Int(value)
                cursor += 1 + size
            }
            let references = kind == 0xD ? length * 2 : length
            guard references <= (tableStart - cursor) / referenceSize else { throw ShortcutError.damaged("a binary property list collection longer than the file") }
            var found: [Int] = []
            found.reserveCapacity(references)
            for position in 0..<references {
                guard let reference = number(bytes, at: cursor + position * referenceSize, size: referenceSize), reference < objects else {
                    throw ShortcutError.damaged("a binary property list reference to an object that is not there")
                }
                found.append(Int(reference))
            }
            // A dictionary's keys are texts: another key does not bridge to a dictionary of texts.
            if kind == 0xD {
                for key in found.prefix(length) {
                    let keyKind = bytes[try offset(of: key)] >> 4
                    guard keyKind == 0x5 || keyKind == 0x6 else { throw ShortcutError.damaged("a binary property list dictionary whose key is not a text") }
                }
            }
            return found
        }

        // Heights of the objects finished (-1: not yet; -2: being walked, under the current path).
        var height = [Int32](repeating: -1, count: objectCount)
        // How many values each finished object is once read, shared objects counted each time.
        var size = [Int](repeating: 0, count: objectCount)
        var path: [(object: Int, children: [Int], next: Int)] = []
        height[Int(top)] = -2
        path.append((Int(top), try children(at: try offset(of: Int(top))), 0))
        while var last = path.popLast() {
            if last.next < last.children.count {
                let child = last.children[last.next]
                last.next += 1
                path.append(last)
                switch height[child] {
                case -2: throw ShortcutError.damaged("a binary property list object that holds itself")
                case -1:
                    guard path.count < limit else { throw ShortcutError.tooDeep(limit) }
                    height[child] = -2
                    path.append((child, try children(at: try offset(of: child)), 0))
                default:
                    guard path.count + Int(height[child]) <= limit else { throw ShortcutError.tooDeep(limit) }
                }
            } else {
                let below = last.children.map { Int(height[$0]) + 1 }.max() ?? 0
                height[last.object] = Int32(below)
                var total = 1
                for child in last.children {
                    total += size[child]
                    if total > Limits.shortcutValues { throw ShortcutError.tooMany() }
                }
                size[last.object] = total
            }
        }
    }

    /// The big-endian number of `size` bytes at `start`, or nil when they are not all in `bytes`.
    private static func number(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard start >= 0, size <= 8, start <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
