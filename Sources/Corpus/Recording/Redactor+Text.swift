/// Redaction of free text: bodies that are not JSON (NDJSON streams, truncated bodies, forms),
/// header values and JSON strings. Two passes over the bytes: JWT-shaped tokens anywhere, then
/// `"key": value` pairs and `key=value` pairs whose key names a secret.
extension Redactor {
    /// Text with its JWT-shaped tokens and its secret-named pairs replaced by placeholders.
    /// - Parameter string: the text.
    /// - Returns: the text to record.
    public func text(_ string: String) -> String {
        guard Self.mayHoldSecret(string) else { return string }
        let bytes = Array(string.utf8)
        guard let redacted = text(bytes) else { return string }
        return String(decoding: redacted, as: UTF8.self)
    }

    /// Whether text could hold a JWT (`eyJ`) or a pair (`=` or `:`); most values cannot, and
    /// are then kept without copying.
    static func mayHoldSecret(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x3D, 0x3A: return true
                case 0x65 where index + 2 < bytes.count && bytes[index + 1] == 0x79 && bytes[index + 2] == 0x4A: return true
                default: index += 1
                }
            }
            return false
        }
    }

    /// Bytes of text with secrets replaced, or nil when nothing was.
    /// - Parameter bytes: UTF-8 text.
    /// - Returns: the redacted bytes, nil when unchanged.
    public func text(_ bytes: [UInt8]) -> [UInt8]? {
        let afterTokens = replacingTokens(bytes)
        let afterPairs = replacingPairs(afterTokens ?? bytes)
        return afterPairs ?? afterTokens
    }

    private func replacingTokens(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0x65, let range = Self.jwtRange(in: bytes, from: index) {  // "e"
                if out.isEmpty { out.reserveCapacity(bytes.count) }
                out.append(contentsOf: bytes[copied..<range.lowerBound])
                let token = String(decoding: bytes[range], as: UTF8.self)
                out.append(contentsOf: placeholder(for: token, kind: "jwt").utf8)
                copied = range.upperBound
                index = range.upperBound
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// The range of a JWT-shaped token starting at `start`: `eyJ…` base64url, a dot, base64url,
    /// a dot, optional base64url (and any further dot-separated segments), not inside a longer
    /// run of such characters.
    static func jwtRange(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard start + 3 <= bytes.count, bytes[start] == 0x65, bytes[start + 1] == 0x79, bytes[start + 2] == 0x4A else { return nil }
        if start > 0, isBase64URL(bytes[start - 1]) || bytes[start - 1] == 0x2E { return nil }
        var index = start
        func run() -> Int {
            let from = index
            while index < bytes.count, isBase64URL(bytes[index]) { index += 1 }
            return index - from
        }
        guard run() >= 8, index < bytes.count, bytes[index] == 0x2E else { return nil }
        index += 1
        guard run() >= 2, index < bytes.count, bytes[index] == 0x2E else { return nil }
        index += 1
        _ = run()
        // Further dot-separated segments (a JWE has five) belong to the token.
        while index + 1 < bytes.count, bytes[index] == 0x2E, isBase64URL(bytes[index + 1]) {
            index += 1
            _ = run()
        }
        return start..<index
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    private static func isNameByte(_ byte: UInt8) -> Bool { isBase64URL(byte) || byte == 0x2E }

    private static func isPairBoundary(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x26, 0x3F, 0x20, 0x0A, 0x0D, 0x09, 0x3B, 0x2C, 0x22, 0x27, 0x3C, 0x3E, 0x7B, 0x7D: true
        default: false
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    /// Replaces the values of secret-named `"key": value` and `key=value` pairs.
    private func replacingPairs(_ bytes: [UInt8]) -> [UInt8]? {
        var edits: [(Range<Int>, quoted: Bool)] = []
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x22 {  // a quoted string: a key when a colon follows
                guard let close = Self.closingQuote(bytes, after: index) else {
                    index = Self.nextLine(bytes, after: index)
                    continue
                }
                var next = close + 1
                while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
                guard next < count, bytes[next] == 0x3A else {
                    edits += pairs(in: bytes, index + 1..<close)
                    index = close + 1
                    continue
                }
                let key = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                next += 1
                while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0A || bytes[next] == 0x0D { next += 1 }
                index = next
                guard next < count, policy.isSecret(key) else { continue }
                if bytes[next] == 0x22 {
                    guard let end = Self.closingQuote(bytes, after: next) else {
                        let lineEnd = Self.lineEnd(bytes, after: next)
                        if lineEnd > next + 1 { edits.append(((next + 1)..<lineEnd, false)) }
                        index = Self.nextLine(bytes, after: next)
                        continue
                    }
                    if end > next + 1 { edits.append(((next + 1)..<end, false)) }
                    index = end + 1
                } else if bytes[next] != 0x7B && bytes[next] != 0x5B {
                    var end = next
                    while end < count, !Self.endsScalar(bytes[end]) { end += 1 }
                    if end > next && bytes[next..<end].elementsEqual("null".utf8) == false { edits.append((next..<end, true)) }
                    index = end
                }
                continue
            }
            if index == 0 || Self.isPairBoundary(bytes[index - 1]), Self.isNameByte(byte) {
                let found = pairs(in: bytes, index..<count, single: true)
                edits += found
                index = found.last?.0.upperBound ?? index + 1
                continue
            }
            index += 1
        }
        guard !edits.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count + 32 * edits.count)
        var copied = 0
        for (range, quoted) in edits where range.lowerBound >= copied {
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            let value = String(decoding: bytes[range], as: UTF8.self)
            let replacement = secret(value)
            out.append(contentsOf: (quoted ? "\"\(replacement)\"" : replacement).utf8)
            copied = range.upperBound
        }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// `key=value` pairs with a secret key inside `range`; with `single`, only one starting at its start.
    private func pairs(in bytes: [UInt8], _ range: Range<Int>, single: Bool = false) -> [(Range<Int>, quoted: Bool)] {
        var found: [(Range<Int>, quoted: Bool)] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let atBoundary = index == range.lowerBound || Self.isPairBoundary(bytes[index - 1])
            guard atBoundary, Self.isNameByte(bytes[index]) else {
                if single { return found }
                index += 1
                continue
            }
            var end = index
            while end < range.upperBound, Self.isNameByte(bytes[end]) { end += 1 }
            if end < range.upperBound, bytes[end] == 0x3D {
                var valueEnd = end + 1
                while valueEnd < range.upperBound, !Self.isPairBoundary(bytes[valueEnd]) { valueEnd += 1 }
                let name = String(decoding: bytes[index..<end], as: UTF8.self)
                if valueEnd > end + 1, policy.isSecret(name) { found.append(((end + 1)..<valueEnd, false)) }
                index = valueEnd
            } else {
                index = end
            }
            if single { return found }
        }
        return found
    }

    /// The index of the next line feed after `index`, or the end.
    private static func lineEnd(_ bytes: [UInt8], after index: Int) -> Int {
        var next = index + 1
        while next < bytes.count, bytes[next] != 0x0A { next += 1 }
        return next
    }

    /// The index after the next line feed (or the end).
    private static func nextLine(_ bytes: [UInt8], after index: Int) -> Int { min(lineEnd(bytes, after: index) + 1, bytes.count) }

    private static func closingQuote(_ bytes: [UInt8], after open: Int) -> Int? {
        var index = open + 1
        while index < bytes.count {
            switch bytes[index] {
            case 0x5C: index += 2
            case 0x22: return index
            case 0x0A: return nil
            default: index += 1
            }
        }
        return nil
    }
}
