import KizunaWire

/// The compact JSON of a recording line: members in the order given (bodies keep the order they
/// were sent in), only the mandatory escapes, strings copied in runs rather than byte by byte,
/// since recorded bodies can be megabytes of text.
enum RecordingLine {
    /// Appends the compact form of `value` to `out`.
    static func append(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null, .bool, .number: CanonicalJSON.writeCompact(value, into: &out)
        case .string(let string): appendString(string, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                append(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a JSON string literal, copying runs of bytes that need no escape at once.
    static func appendString(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            out.reserveCapacity(out.count + bytes.count + 2)
            out.append(UInt8(ascii: "\""))
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

    /// The escape of a quote, a backslash or a control byte, as `CanonicalJSON` writes it.
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
}
