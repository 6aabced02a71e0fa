import Glibc

/// Redaction of free text: bodies that are not JSON (NDJSON streams, truncated bodies, forms),
/// header values and JSON strings. Two passes over the bytes: JWT-shaped tokens anywhere, then
/// `"key": value` pairs and `key=value` pairs whose key names a secret.
extension Redactor {
    /// Text with its JWT-shaped tokens and its secret-named pairs replaced by placeholders.
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
        return string.withUTF8 { mayHoldSecret(bytes: $0) }
    }

    /// Whether UTF-8 text could hold a JWT or a pair.
    static func mayHoldSecret(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// Bytes of text with secrets replaced, or nil when nothing was.
    /// - Returns: the redacted bytes, nil when unchanged.
    public func text(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { text(utf8: $0) }
    }

    /// Bytes of text with secrets replaced, or nil when nothing was.
    /// - Returns: the redacted bytes, nil when unchanged.
    public func text(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let afterPairs: [UInt8]?
        if let afterTokens = replacingTokens(bytes) {
            afterPairs = afterTokens.withUnsafeBufferPointer { replacingPairs($0) } ?? afterTokens
        } else {
            afterPairs = replacingPairs(bytes)
        }
        guard Self.mayHoldFormParts(bytes) else { return afterPairs }
        guard let afterPairs else { return replacingFormParts(bytes) }
        return afterPairs.withUnsafeBufferPointer { replacingFormParts($0) } ?? afterPairs
    }

    /// Whether redacting the text would change it, without handing out placeholders: the
    /// same decision `text(utf8:)` takes, for a caller that must not number secrets yet.
    /// - Returns: true when `text(utf8:)` would replace something.
    public func textNeedsRedaction(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Self.mayHoldSecret(bytes: bytes) else { return false }
        if Self.nextToken(in: bytes, from: 0) != nil || !pairEdits(bytes).isEmpty { return true }
        return Self.mayHoldFormParts(bytes) && !formPartEdits(bytes).isEmpty
    }

    private func replacingTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        while let range = Self.nextToken(in: bytes, from: copied) {
            if out.isEmpty { out.reserveCapacity(bytes.count) }
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            let token = String(decoding: bytes[range], as: UTF8.self)
            out.append(contentsOf: placeholder(for: token, kind: "jwt").utf8)
            copied = range.upperBound
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// The first JWT-shaped token at or after `start`.
    static func nextToken(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        var index = start
        while index + 3 <= bytes.count {
            // Every token starts "eyJ": jump with memchr to the next "J" (rare in text), two on.
            guard let base = bytes.baseAddress, let found = memchr(base + index + 2, 0x4A, bytes.count - index - 2) else { return nil }
            index = UnsafeRawPointer(found) - UnsafeRawPointer(base) - 2
            if let range = jwtRange(in: bytes, from: index) { return range }
            index += 1
        }
        return nil
    }

    /// The range of a JWT-shaped token starting at `start`: `eyJ…` base64url, a dot, base64url,
    /// a dot, optional base64url (and any further dot-separated segments), not inside a longer
    /// run of such characters.
    static func jwtRange(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
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

    /// The high bit of each of eight bytes (little-endian) that may be a quote, a backslash or
    /// a line feed (SWAR): zero when none is; the lowest set bit is exact.
    @inline(__always) private static func stringEndFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let newline = word ^ (ones &* 0x0A)
        let found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((newline &- ones) & ~newline)
        return found & highs
    }

    /// Whether an ASCII byte is in the set given as two bit masks (bytes 0–63, 64–127); a
    /// branch-free lookup, since these tests run once per byte of megabyte bodies.
    @inline(__always) private static func inSet(_ byte: UInt8, _ low: UInt64, _ high: UInt64) -> Bool {
        let mask = byte < 64 ? low : (byte < 128 ? high : 0)
        return (mask >> UInt64(byte & 63)) & 1 == 1
    }

    /// `A–Z a–z 0–9 - _`.
    @inline(__always) static func isBase64URL(_ byte: UInt8) -> Bool { inSet(byte, 0x03FF_2000_0000_0000, 0x07FF_FFFE_87FF_FFFE) }

    /// Base64url, `.`, `%`, `+`, `[` or `]`: the bytes of a name as forms write it
    /// (`user[password]`, `pass%77ord`, `new+password`), decoded and split by `RedactionPolicy`.
    @inline(__always) private static func isNameByte(_ byte: UInt8) -> Bool { inSet(byte, 0x03FF_6820_0000_0000, 0x07FF_FFFE_AFFF_FFFE) }

    /// Where scanning goes on after a replaced value ending at `end`: past its closing quote
    /// when it was quoted (`password="…"`).
    private static func afterValue(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int {
        end < bytes.count && (bytes[end] == 0x22 || bytes[end] == 0x27) ? end + 1 : end
    }

    /// `& ? # space LF CR TAB ; , " ' < > { }`.
    @inline(__always) private static func isPairBoundary(_ byte: UInt8) -> Bool {
        inSet(byte, 0xD800_10CD_0000_2600, 0x2800_0000_0000_0000)
    }

    /// `, } ] space LF CR TAB`.
    @inline(__always) private static func endsScalar(_ byte: UInt8) -> Bool { inSet(byte, 0x0000_1001_0000_2600, 0x2000_0000_2000_0000) }

    /// Replaces the values of secret-named `"key": value` and `key=value` pairs.
    private func replacingPairs(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let edits = pairEdits(bytes)
        guard !edits.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32 * edits.count)
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

    /// The values of secret-named pairs, in text order.
    private func pairEdits(_ bytes: UnsafeBufferPointer<UInt8>) -> [(Range<Int>, quoted: Bool)] {
        var edits: [(Range<Int>, quoted: Bool)] = []
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x22 {  // a quoted string: a key when a colon follows
                guard let close = Self.closingQuote(bytes, after: index) else {
                    // A stray quote (`12" pizza`) opens no string: the rest of its line is
                    // searched still. Only a line's last quote can be unclosed, so this stays linear.
                    index += 1
                    continue
                }
                var next = close + 1
                while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
                guard next < count, bytes[next] == 0x3A else {
                    // Appending even nothing to an empty array allocates: most strings hold no pair.
                    let found = pairs(in: bytes, index + 1..<close)
                    if !found.isEmpty { edits += found }
                    index = close + 1
                    continue
                }
                let key = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close])
                next += 1
                while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0A || bytes[next] == 0x0D { next += 1 }
                index = next
                guard next < count, policy.isSecret(utf8: key) else { continue }
                if bytes[next] == 0x22 {
                    guard let end = Self.closingQuote(bytes, after: next) else {
                        let lineEnd = Self.lineEnd(bytes, after: next)
                        if lineEnd > next + 1 { edits.append(((next + 1)..<lineEnd, false)) }
                        index = Self.nextLine(bytes, after: next)
                        continue
                    }
                    if end > next + 1 { edits.append(((next + 1)..<end, false)) }
                    index = end + 1
                } else if bytes[next] == 0x7B || bytes[next] == 0x5B {
                    // An object or an array is replaced whole, to its closing bracket, or to
                    // the end of the text when it is cut short.
                    let end = Self.containerEnd(bytes, from: next)
                    edits.append((next..<end, true))
                    index = end
                } else {
                    var end = next
                    while end < count, !Self.endsScalar(bytes[end]) { end += 1 }
                    if end > next && bytes[next..<end].elementsEqual("null".utf8) == false { edits.append((next..<end, true)) }
                    index = end
                }
                continue
            }
            if index == 0 || Self.isPairBoundary(bytes[index - 1]), Self.isNameByte(byte) {
                let found = pairs(in: bytes, index..<count, single: true)
                if !found.isEmpty { edits += found }
                index = found.last.map { Self.afterValue(bytes, $0.0.upperBound) } ?? index + 1
                continue
            }
            index += 1
        }
        return edits
    }

    /// `key=value` pairs with a secret key inside `range`; with `single`, only one starting at its start.
    private func pairs(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, single: Bool = false) -> [(Range<Int>, quoted: Bool)] {
        var found: [(Range<Int>, quoted: Bool)] = []
        // A pair needs an "=": text without one (most JSON string values) has none to find.
        if !single, let base = bytes.baseAddress, range.count > 0, memchr(base + range.lowerBound, 0x3D, range.count) == nil {
            return found
        }
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
                // `name=value`, or `name="value"` (`'value'`) quoted to its closing quote.
                var valueStart = end + 1
                var valueEnd = valueStart
                var quote: UInt8?
                if valueStart < range.upperBound, bytes[valueStart] == 0x22 || bytes[valueStart] == 0x27 {
                    quote = bytes[valueStart]
                    valueStart += 1
                    valueEnd = valueStart
                    while valueEnd < range.upperBound, bytes[valueEnd] != quote, bytes[valueEnd] != 0x0A { valueEnd += 1 }
                } else {
                    while valueEnd < range.upperBound, !Self.isPairBoundary(bytes[valueEnd]) { valueEnd += 1 }
                }
                if valueEnd > valueStart, policy.isSecret(utf8: UnsafeBufferPointer(rebasing: bytes[index..<end])) {
                    found.append((valueStart..<valueEnd, false))
                }
                index = valueEnd
                // Past a closing quote, so that it opens no string for the caller.
                if quote != nil, index < range.upperBound, bytes[index] == quote { index += 1 }
            } else {
                index = end
            }
            if single { return found }
        }
        return found
    }

    /// The index after the bracket that closes the object or array opening at `open`, strings
    /// skipped; the end of the text when it never closes.
    static func containerEnd(_ bytes: UnsafeBufferPointer<UInt8>, from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < bytes.count {
            switch bytes[index] {
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return index + 1 }
            case 0x22:
                var close = index + 1
                while close < bytes.count, bytes[close] != 0x22 { close += bytes[close] == 0x5C ? 2 : 1 }
                index = close
            default: break
            }
            index += 1
        }
        return bytes.count
    }

    /// How much of a body cut at the limit may be recorded: all but a trailing run of bytes a
    /// token is made of (base64url, `. % + / = ~`), which may be the start of a secret whose
    /// end, and so whose shape or name, was cut off.
    public static func safePrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = bytes.count
        while end > 0 {
            let byte = bytes[end - 1]
            guard isBase64URL(byte) || byte == 0x2E || byte == 0x25 || byte == 0x2B || byte == 0x2F || byte == 0x3D || byte == 0x7E
            else { break }
            end -= 1
        }
        // A cut in the middle of a UTF-8 sequence leaves no partial character either.
        var lead = end
        while lead > 0, end - lead < 3, bytes[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        guard lead > 0, bytes[lead - 1] >= 0xC0 else { return end }
        let first = bytes[lead - 1]
        let length = first >= 0xF0 ? 4 : (first >= 0xE0 ? 3 : 2)
        return end - (lead - 1) < length ? lead - 1 : end
    }

    /// The index of the next line feed after `index`, or the end.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
        var next = index + 1
        while next < bytes.count, bytes[next] != 0x0A { next += 1 }
        return next
    }

    /// The index after the next line feed (or the end).
    private static func nextLine(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
        min(lineEnd(bytes, after: index) + 1, bytes.count)
    }

    private static func closingQuote(_ bytes: UnsafeBufferPointer<UInt8>, after open: Int) -> Int? {
        var index = open + 1
        while index < bytes.count {
            if index + 8 <= bytes.count, let base = bytes.baseAddress {
                // The lowest flagged byte is exact: skip straight to it.
                let flags = stringEndFlags(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if flags == 0 {
                    index += 8
                    // A clean word often starts a long clean run (a text value): 32 bytes a step.
                    while index + 32 <= bytes.count, isCleanRun(UnsafeRawPointer(base + index)) { index += 32 }
                    continue
                }
                index += flags.trailingZeroBitCount / 8
            }
            switch bytes[index] {
            case 0x5C: index += 2
            case 0x22: return index
            case 0x0A: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// Whether 32 bytes hold no quote, backslash or line feed.
    @inline(__always) private static func isCleanRun(_ pointer: UnsafeRawPointer) -> Bool {
        let a = stringEndFlags(pointer.loadUnaligned(as: UInt64.self))
        let b = stringEndFlags(pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let c = stringEndFlags(pointer.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let d = stringEndFlags(pointer.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        return a | b | c | d == 0
    }
}
