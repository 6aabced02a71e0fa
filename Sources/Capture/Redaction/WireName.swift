/// A parameter or field name as a peer reads it: forms and query strings percent-encode
/// names (`pass%77ord`) and nest them (`user[password]`, `session.token`), and a redactor that
/// compared the bytes as written would miss both.
enum WireName {
    /// Whether a name holds anything to decode or split: most names (`id`, `cursor`) do not,
    /// and are then compared as they are.
    static func isStructured(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { isPartBoundary($0) || $0 == 0x25 || $0 == 0x2B }
    }

    /// `[`, `]`, `.` and `#`: what separates the parts of a nested name.
    @inline(__always) static func isPartBoundary(_ byte: UInt8) -> Bool {
        byte == 0x5B || byte == 0x5D || byte == 0x2E || byte == 0x23
    }

    /// The name percent-decoded, `+` read as a space (as forms encode it).
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] { PercentEncoding.decodedOnce(bytes, plusAsSpace: true) }

    /// The non-empty parts of a decoded name, between part boundaries.
    static func parts(of name: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = 0
        for index in 0...name.count where index == name.count || isPartBoundary(name[index]) {
            if index > start { parts.append(start..<index) }
            start = index + 1
        }
        return parts
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x37
        case 0x61...0x66: return byte - 0x57
        default: return nil
        }
    }
}
