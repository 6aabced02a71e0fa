/// Byte classes of RFC 9110/9112 grammar.
enum ByteClass {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    /// `tchar`: the characters of a token (method, header name).
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// A byte of a field value: HTAB, SP, VCHAR or obs-text.
    static func isFieldValueChar(_ byte: UInt8) -> Bool { byte == tab || byte == space || (byte >= 0x21 && byte != 0x7F) }

    /// A byte of a request target: VCHAR only.
    static func isTargetChar(_ byte: UInt8) -> Bool { byte >= 0x21 && byte <= 0x7E }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }
}
