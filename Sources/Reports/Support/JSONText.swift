/// JSON string literals, written straight into a byte buffer.
enum JSONText {
    private static let hex: StaticString = "0123456789abcdef"

    /// Appends `string` as a JSON string literal with only the mandatory escapes (RFC 8259 §7).
    ///
    /// Quote and backslash are escaped, control characters use their short forms where JSON
    /// has one (`\b \t \n \f \r`) and `\u00XX` otherwise; everything else is copied as UTF-8.
    /// - Parameters:
    ///   - string: the text.
    ///   - out: the buffer to append to.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var copy = string
        copy.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C: out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
