/// Percent-encoding (RFC 3986 §2.1) as redaction needs it: decoding to search what a URL
/// carries, and encoding what was redacted so that it stands in a URL again.
enum PercentEncoding {
    /// The text with `%XX` escapes decoded, `depth` times at most (a URL inside a query value
    /// inside another is encoded twice); a `%` not followed by two hex digits stays.
    static func decoded(_ text: Substring, depth: Int) -> String {
        var current = Array(text.utf8)
        for _ in 0..<depth {
            guard current.contains(0x25) else { break }
            let next = current.withUnsafeBufferPointer { decodedOnce($0, plusAsSpace: false) }
            if next == current { break }
            current = next
        }
        return String(decoding: current, as: UTF8.self)
    }

    /// One layer of `%XX` escapes decoded; a `%` not followed by two hex digits stays, and `+`
    /// becomes a space when `plusAsSpace` (form encoding).
    static func decodedOnce(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25, index + 2 < bytes.count, let high = WireName.hexValue(bytes[index + 1]),
                let low = WireName.hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusAsSpace && bytes[index] == 0x2B ? 0x20 : bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The text encoded for a query value or a path segment: unreserved characters and
    /// `/ : @ ?` as they are, placeholders (`<redacted:jwt:1>`) as they are, everything else
    /// escaped.
    static func encoded(_ text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if let placeholder = placeholderLength(bytes, at: index) {
                out += bytes[index..<(index + placeholder)]
                index += placeholder
                continue
            }
            let byte = bytes[index]
            if isKept(byte) {
                out.append(byte)
            } else {
                out += [0x25, hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text with its placeholders' `<` and `>` escaped, for a URL that must parse as one
    /// (HAR's `request.url`); the rest is left as recorded.
    static func escapingPlaceholders(_ text: String) -> String {
        guard text.contains("<redacted:") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if let length = placeholderLength(bytes, at: index) {
                out += Array("%3C".utf8) + bytes[(index + 1)..<(index + length - 1)] + Array("%3E".utf8)
                index += length
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of a placeholder `<redacted:KIND:N>` starting at `index`, if one does.
    static func placeholderLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let prefix = Array("<redacted:".utf8)
        guard bytes[index] == 0x3C, bytes.count - index > prefix.count, bytes[index..<(index + prefix.count)].elementsEqual(prefix) else {
            return nil
        }
        var end = index + prefix.count
        while end < bytes.count, bytes[end] != 0x3E {
            let byte = bytes[end]
            guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x3A else { return nil }
            end += 1
        }
        return end < bytes.count ? end + 1 - index : nil
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x2F, 0x3A, 0x40, 0x3F: return true
        default: return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }
}
