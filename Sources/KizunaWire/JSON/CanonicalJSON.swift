import Foundation

/// The corpus's canonical JSON form (upstream rules C-1..C-7, C-9): UTF-8 without BOM, LF line
/// ends, 2-space indent, object keys sorted byte-wise at every level, arrays in order, only
/// mandatory string escapes, one trailing newline.
public enum CanonicalJSON {
    /// Renders a value in canonical form, trailing newline included.
    /// - Parameter value: the value to render.
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
    /// - Parameter value: the value to render.
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
    /// - Parameter object: the object.
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
        string.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            // Runs that need no escape are copied at once: recorded bodies can be megabytes.
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
    }

    /// The mandatory escape of a quote, a backslash or a control byte.
    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
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
