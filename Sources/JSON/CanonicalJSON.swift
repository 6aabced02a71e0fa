import Foundation

/// The corpus's canonical JSON form (upstream rules C-1..C-7, C-9): UTF-8 without BOM, LF line
/// ends, 2-space indent, object keys sorted byte-wise at every level, arrays in order, only
/// mandatory string escapes, one trailing newline.
public enum CanonicalJSON {
    /// Renders a value in canonical form, trailing newline included.
    /// - Returns: the canonical UTF-8 bytes.
    public static func render(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        var writer = Writer(out: out, spans: nil)
        writer.write(value, depth: 0, path: [])
        writer.out.append(0x0A)
        return writer.out
    }

    /// Renders a value in canonical form and reports where each value at `depth` ≤ `spanDepth`
    /// landed in the output, so a byte offset can be mapped back to a JSON pointer.
    /// - Parameters:
    ///   - value: the value to render.
    ///   - spanDepth: the deepest level whose spans are recorded.
    /// - Returns: the bytes and the spans, keyed by pointer.
    public static func renderWithSpans(_ value: JSONValue, spanDepth: Int) -> (bytes: [UInt8], spans: [(JSONPointer, Range<Int>)]) {
        var writer = Writer(out: [], spans: (spanDepth, []))
        writer.write(value, depth: 0, path: [])
        writer.out.append(0x0A)
        return (writer.out, writer.spans?.recorded ?? [])
    }

    /// Renders a value on one line with keys sorted and no insignificant whitespace.
    /// - Returns: the compact text.
    public static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        writeCompact(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact form of `value` to `out`: keys sorted, or, when `sortingKeys` is false,
    /// in the order given (recordings keep bodies as they were sent).
    /// - Parameters:
    ///   - value: the value.
    ///   - out: the buffer to append to.
    ///   - sortingKeys: whether object members are sorted by key (C-2).
    public static func writeCompact(_ value: JSONValue, into out: inout [UInt8], sortingKeys: Bool = true) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: number.literal.utf8)
        case .string(let string): appendString(string, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeCompact(element, into: &out, sortingKeys: sortingKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in (sortingKeys ? sortedMembers(object) : object.members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                writeCompact(member.value, into: &out, sortingKeys: sortingKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Members sorted by the byte order of their UTF-8 keys (C-2).
    /// - Returns: its members in canonical order.
    public static func sortedMembers(_ object: JSONObject) -> [JSONObject.Member] {
        if isSorted(object.members) { return object.members }
        return object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private static func isSorted(_ members: [JSONObject.Member]) -> Bool {
        if members.count < 2 { return true }
        for index in 1..<members.count
        where !members[index - 1].key.utf8.lexicographicallyPrecedes(members[index].key.utf8) {
            return false
        }
        return true
    }

    /// Appends a JSON string literal with only the mandatory escapes (C-5).
    /// - Parameters:
    ///   - string: the string.
    ///   - out: the buffer to append to.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// Appends a JSON string literal with only the mandatory escapes (C-5), from UTF-8 bytes.
    /// - Parameters:
    ///   - bytes: the string's UTF-8 bytes (not checked).
    ///   - out: the buffer to append to.
    public static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if bytes.count >= 4096 && out.isEmpty {
            out = encodedString(utf8: bytes)
            return
        }
        out.reserveCapacity(out.count + bytes.count + 2)
        out.append(UInt8(ascii: "\""))
        // Runs that need no escape are copied at once.
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
            escape(byte, into: &out)
            start = index + 1
        }
        if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal with only the mandatory escapes, for large text (recorded bodies
    /// can be megabytes): written into a buffer sized for the worst case, eight bytes at a time
    /// where no byte needs an escape.
    /// - Parameter bytes: the string's UTF-8 bytes (not checked).
    /// - Returns: the literal, quotes included.
    public static func encodedString(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // Worst case six bytes out per byte in, plus the quotes and 32 bytes of slack for the
        // stores below, which may copy past what they keep.
        [UInt8](unsafeUninitializedCapacity: bytes.count * 6 + 34) { buffer, count in
            guard let target = buffer.baseAddress else { return }
            let raw = UnsafeMutableRawPointer(target)
            var written = 0
            target[written] = 0x22
            written += 1
            var index = 0
            if let source = bytes.baseAddress {
                while index < bytes.count {
                    if index + 8 <= bytes.count {
                        // Store eight bytes as they are, then keep only the prefix that needs no
                        // escape: the lowest flagged byte is exact.
                        let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                        raw.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
                        let flags = Self.escapeFlags(word)
                        if flags == 0 {
                            index += 8
                            written += 8
                            // A clean word often starts a long clean run: 32 bytes a step.
                            while index + 32 <= bytes.count, Self.copyIfClean(from: source + index, to: raw + written) {
                                index += 32
                                written += 32
                            }
                            continue
                        }
                        let clean = flags.trailingZeroBitCount / 8
                        index += clean
                        written += clean
                    }
                    let byte = source[index]
                    index += 1
                    guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                        target[written] = byte
                        written += 1
                        continue
                    }
                    written += Self.writeEscape(byte, at: target + written)
                }
            }
            target[written] = 0x22
            count = written + 1
        }
    }

    /// Copies 32 bytes and tells whether none of them needs an escape; when one does, the
    /// caller writes over the copy from the first such byte on.
    @inline(__always) private static func copyIfClean(from source: UnsafePointer<UInt8>, to target: UnsafeMutableRawPointer) -> Bool {
        let from = UnsafeRawPointer(source)
        let a = from.loadUnaligned(as: UInt64.self)
        let b = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let c = from.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let d = from.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        target.storeBytes(of: a, as: UInt64.self)
        target.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
        target.storeBytes(of: c, toByteOffset: 16, as: UInt64.self)
        target.storeBytes(of: d, toByteOffset: 24, as: UInt64.self)
        return escapeFlags(a) | escapeFlags(b) | escapeFlags(c) | escapeFlags(d) == 0
    }

    /// Writes the escape of a quote, a backslash or a control byte; returns its length.
    @inline(__always) private static func writeEscape(_ byte: UInt8, at target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = 0x5C
        switch byte {
        case 0x22, 0x5C: target[1] = byte
        case 0x08: target[1] = UInt8(ascii: "b")
        case 0x09: target[1] = UInt8(ascii: "t")
        case 0x0A: target[1] = UInt8(ascii: "n")
        case 0x0C: target[1] = UInt8(ascii: "f")
        case 0x0D: target[1] = UInt8(ascii: "r")
        default:
            let hex: StaticString = "0123456789abcdef"
            target[1] = UInt8(ascii: "u")
            target[2] = 0x30
            target[3] = 0x30
            target[4] = hex.utf8Start[Int(byte >> 4)]
            target[5] = hex.utf8Start[Int(byte & 0xF)]
            return 6
        }
        return 2
    }

    /// The high bit of each of eight bytes (little-endian) that may be a quote, a backslash or a
    /// control byte (SWAR): zero when none is, and the lowest set bit marks the first such byte
    /// exactly; higher bits may be false alarms.
    @inline(__always) static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return hasQuote | hasBackslash | hasControl
    }

    /// The mandatory escape of a quote, a backslash or a control byte.
    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(0x5C)
        switch byte {
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        default:
            let nibbles = [byte >> 4, byte & 0xF].map { $0 < 10 ? 0x30 + $0 : 0x57 + $0 }
            out.append(UInt8(ascii: "u"))
            out.append(0x30)
            out.append(0x30)
            out.append(nibbles[0])
            out.append(nibbles[1])
        }
    }

    private struct Writer {
        var out: [UInt8]
        var spans: (depth: Int, recorded: [(JSONPointer, Range<Int>)])?

        mutating func indent(_ depth: Int) {
            for _ in 0..<depth { out.append(0x20); out.append(0x20) }
        }

        mutating func write(_ value: JSONValue, depth: Int, path: [String]) {
            let start = out.count
            switch value {
            case .array(let array) where !array.isEmpty:
                out.append(UInt8(ascii: "["))
                out.append(0x0A)
                for (index, element) in array.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")); out.append(0x0A) }
                    indent(depth + 1)
                    write(element, depth: depth + 1, path: spans == nil ? path : path + [String(index)])
                }
                out.append(0x0A)
                indent(depth)
                out.append(UInt8(ascii: "]"))
            case .object(let object) where object.count > 0:
                out.append(UInt8(ascii: "{"))
                out.append(0x0A)
                for (index, member) in CanonicalJSON.sortedMembers(object).enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")); out.append(0x0A) }
                    indent(depth + 1)
                    CanonicalJSON.appendString(member.key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    out.append(0x20)
                    write(member.value, depth: depth + 1, path: spans == nil ? path : path + [member.key])
                }
                out.append(0x0A)
                indent(depth)
                out.append(UInt8(ascii: "}"))
            case .array: out.append(contentsOf: "[]".utf8)
            case .object: out.append(contentsOf: "{}".utf8)
            default:
                CanonicalJSON.writeCompact(value, into: &out)
            }
            if let limit = spans?.depth, path.count <= limit, !path.isEmpty {
                spans?.recorded.append((JSONPointer(tokens: path), start..<out.count))
            }
        }
    }
}
