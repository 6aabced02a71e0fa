import Foundation

/// The scanning side of `JSONRewriter`: validates as `JSONParser` does and re-encodes as it
/// goes. Bytes that stay as they are (structure, numbers, literals, strings without escapes)
/// join a run of input copied in one piece; only whitespace, re-escaped strings and
/// replacements break a run.
extension JSONScanner {
    /// Adds the input bytes `lower..<upper` to the output, unchanged.
    @inline(__always) func keep(_ lower: Int, _ upper: Int, _ pass: inout RewritePass, into out: inout [UInt8]) {
        if lower != pass.runEnd {
            flushRun(&pass, into: &out)
            pass.runStart = lower
        }
        pass.runEnd = upper
    }

    /// Copies the pending run of unchanged input to the output.
    func flushRun(_ pass: inout RewritePass, into out: inout [UInt8]) {
        if pass.runStart < pass.runEnd {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[pass.runStart..<pass.runEnd]))
        }
        pass.runStart = pass.runEnd
    }

    mutating func rewriteValue(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass)
        throws(JSONParseError)
    {
        guard index < end else { throw failure("unexpected end of input, expected a value") }
        let start = index
        switch buffer[index] {
        case UInt8(ascii: "{"): try rewriteObject(depth: depth + 1, copying: copying, into: &out, pass: &pass)
        case UInt8(ascii: "["): try rewriteArray(depth: depth + 1, copying: copying, into: &out, pass: &pass)
        case UInt8(ascii: "\""): try rewriteString(copying: copying, into: &out, pass: &pass)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            keep(start, index, &pass, into: &out)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            keep(start, index, &pass, into: &out)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            keep(start, index, &pass, into: &out)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let range = try scanNumber()
            keep(range.lowerBound, range.upperBound, &pass, into: &out)
        default:
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    /// A string value: kept when it has no escapes (its bytes are then its compact form),
    /// else decoded and re-escaped; offered to the rules unless copying.
    mutating func rewriteString(copying: Bool, into out: inout [UInt8], pass: inout RewritePass) throws(JSONParseError) {
        let open = index
        if let range = try scanPlainString() {
            if !copying, let replacement = pass.rules.rewrite(string: UnsafeBufferPointer(rebasing: buffer[range])) {
                flushRun(&pass, into: &out)
                replacement.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
            } else {
                keep(open, index, &pass, into: &out)
            }
            return
        }
        var decoded = try parseString()
        flushRun(&pass, into: &out)
        decoded.withUTF8 { bytes in
            if !copying, let replacement = pass.rules.rewrite(string: bytes) {
                replacement.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
            } else {
                CanonicalJSON.appendString(utf8: bytes, to: &out)
            }
        }
    }

    /// Moves past a string without escapes and returns where its content lies; nil, with the
    /// index unmoved, when it has an escape. Eight bytes at a time while none of them is a
    /// quote, a backslash, a control character or non-ASCII.
    mutating func scanPlainString() throws(JSONParseError) -> Range<Int>? {
        let open = index
        var cursor = index + 1
        var ascii = true
        let raw = buffer.baseAddress.map(UnsafeRawPointer.init)
        while cursor < end {
            // Eight bytes at a time while none of them needs a look of its own; else straight
            // to the first that does (the lowest flag is exact).
            if let raw, cursor + 8 <= end {
                let flags = Self.plainWordFlags(raw.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
                if flags == 0 {
                    cursor += 8
                    continue
                }
                cursor += flags.trailingZeroBitCount / 8
            }
            let byte = buffer[cursor]
            if byte == UInt8(ascii: "\"") { return try closePlainString(open: open, close: cursor, ascii: ascii) }
            if byte == UInt8(ascii: "\\") { return nil }
            if byte < 0x20 {
                index = cursor
                throw failure("unescaped control character in a string")
            }
            if byte >= 0x80 { ascii = false }
            cursor += 1
        }
        throw failure("unterminated string", at: open)
    }

    /// Ends a plain string at its closing quote: checks its UTF-8 and moves past it.
    private mutating func closePlainString(open: Int, close: Int, ascii: Bool) throws(JSONParseError) -> Range<Int> {
        let range = (open + 1)..<close
        if !ascii && !Self.isValidUTF8(UnsafeBufferPointer(rebasing: buffer[range])) {
            throw failure("invalid UTF-8 in a string", at: open)
        }
        index = close + 1
        return range
    }

    /// The high bit of each of eight bytes (little-endian) that may be `"`, `\`, below 0x20 or
    /// 0x80 and above: zero when none is, and the lowest set bit marks the first such byte
    /// exactly; higher bits may be false alarms.
    @inline(__always) static func plainWordFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
