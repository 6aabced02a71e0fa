/// How a `JSONRewriter` treats the value of one object member.
public enum JSONMemberTreatment: Sendable, Hashable {
    /// Rewritten like the rest of the document: strings offered to the rules.
    case rewrite
    /// Copied as it is (compacted), nothing offered to the rules.
    case copy
    /// Replaced whole by the string `JSONRewriteRules.secret(_:)` gives, unless it is null.
    case secret
}

/// What a `JSONRewriter` asks while it re-encodes a document.
public protocol JSONRewriteRules {
    /// How the value of a member is treated.
    /// - Parameter key: the member's key, decoded, as UTF-8 bytes.
    /// - Returns: the treatment.
    func treatment(ofMember key: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment

    /// The replacement of a string value, or nil to keep it.
    /// - Parameter string: the decoded string's UTF-8 bytes.
    /// - Returns: the replacement's UTF-8 bytes, or nil.
    func rewrite(string: UnsafeBufferPointer<UInt8>) -> [UInt8]?

    /// The string that replaces the value of a `.secret` member.
    /// - Parameter material: the value when it is a string, else its compact JSON with sorted keys.
    /// - Returns: the replacement.
    func secret(_ material: String) -> String
}

/// Re-encodes a JSON document compactly in one pass, applying `JSONRewriteRules`, without
/// building a tree. The bytes are exactly those of parsing the document with `JSONParser`,
/// applying the same rules to the tree, and `CanonicalJSON.writeCompact(_:into:sortingKeys:)`
/// with keys in their order; the same documents are refused.
public enum JSONRewriter {
    /// Re-encodes the document that fills `buffer` (surrounding whitespace allowed).
    /// - Parameters:
    ///   - buffer: the UTF-8 document.
    ///   - out: the buffer to append the compact document to; left as it was on failure.
    ///   - rules: what to change.
    ///   - key: a top-level member whose string value to hand back, decoded and unchanged.
    /// - Returns: whether `buffer` is one JSON document, and the string under `key` if any.
    public static func rewrite(
        _ buffer: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], rules: some JSONRewriteRules, capturing key: String? = nil
    ) -> (valid: Bool, captured: String?) {
        let start = out.count
        var scanner = JSONScanner(buffer: buffer)
        var pass = RewritePass(rules: rules, captureKey: key)
        do throws(JSONParseError) {
            scanner.skipWhitespace()
            try scanner.rewriteValue(depth: 0, copying: false, into: &out, pass: &pass)
            scanner.skipWhitespace()
            if scanner.index < scanner.end { throw scanner.failure("content after the document") }
            return (true, pass.captured)
        } catch {
            out.removeSubrange(start...)
            return (false, nil)
        }
    }
}

/// The rules of one rewrite and what it captured.
struct RewritePass<Rules: JSONRewriteRules> {
    let rules: Rules
    let captureKey: String?
    var captured: String?
    var sawCaptureKey = false
}

extension JSONScanner {
    mutating func rewriteValue<Rules>(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass<Rules>)
        throws(JSONParseError)
    {
        guard index < end else { throw failure("unexpected end of input, expected a value") }
        switch buffer[index] {
        case UInt8(ascii: "{"): try rewriteObject(depth: depth + 1, copying: copying, into: &out, pass: &pass)
        case UInt8(ascii: "["): try rewriteArray(depth: depth + 1, copying: copying, into: &out, pass: &pass)
        case UInt8(ascii: "\""): try rewriteString(copying: copying, into: &out, rules: pass.rules)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            out.append(contentsOf: "true".utf8)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            out.append(contentsOf: "false".utf8)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            out.append(contentsOf: "null".utf8)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let range = try scanNumber()
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[range]))
        default:
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    /// A string value: copied when it has no escapes (its bytes are then its compact form),
    /// else decoded and re-escaped; offered to the rules unless copying.
    mutating func rewriteString(copying: Bool, into out: inout [UInt8], rules: some JSONRewriteRules) throws(JSONParseError) {
        let open = index
        if let range = try scanPlainString() {
            let raw = UnsafeBufferPointer(rebasing: buffer[range])
            if !copying, let replacement = rules.rewrite(string: raw) {
                replacement.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(open)..<index]))
            }
            return
        }
        var decoded = try parseString()
        decoded.withUTF8 { bytes in
            if !copying, let replacement = rules.rewrite(string: bytes) {
                replacement.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
            } else {
                CanonicalJSON.appendString(utf8: bytes, to: &out)
            }
        }
    }

    /// Moves past a string without escapes and returns where its content lies; nil, with the
    /// index unmoved, when it has an escape.
    mutating func scanPlainString() throws(JSONParseError) -> Range<Int>? {
        let open = index
        var cursor = index + 1
        var ascii = true
        while cursor < end {
            let byte = buffer[cursor]
            if byte == UInt8(ascii: "\"") {
                let range = (open + 1)..<cursor
                if !ascii && !Self.isValidUTF8(UnsafeBufferPointer(rebasing: buffer[range])) {
                    throw failure("invalid UTF-8 in a string", at: open)
                }
                index = cursor + 1
                return range
            }
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

extension JSONScanner {
    mutating func rewriteObject<Rules>(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass<Rules>)
        throws(JSONParseError)
    {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        out.append(UInt8(ascii: "{"))
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "}") {
            index += 1
            out.append(UInt8(ascii: "}"))
            return
        }
        var first = true
        while true {
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key, found \(describeCurrent())")
            }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            var treatment = JSONMemberTreatment.copy
            var captures = false
            if copying {
                try rewriteString(copying: true, into: &out, rules: pass.rules)
            } else {
                let open = index
                var decoded: String?
                let raw: Range<Int>
                if let plain = try scanPlainString() {
                    raw = plain
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[open..<index]))
                } else {
                    let key = try parseString()
                    CanonicalJSON.appendString(key, to: &out)
                    decoded = key
                    raw = 0..<0
                }
                func decide(_ key: UnsafeBufferPointer<UInt8>) {
                    treatment = pass.rules.treatment(ofMember: key)
                    // The first member of that name counts, as `JSONObject`'s subscript reads it.
                    if depth == 1, !pass.sawCaptureKey, let wanted = pass.captureKey {
                        var wanted = wanted
                        captures = wanted.withUTF8 { $0.elementsEqual(key) }
                        if captures { pass.sawCaptureKey = true }
                    }
                }
                if var decoded {
                    decoded.withUTF8 { decide($0) }
                } else {
                    decide(UnsafeBufferPointer(rebasing: buffer[raw]))
                }
            }
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            index += 1
            out.append(UInt8(ascii: ":"))
            skipWhitespace()
            if captures, index < end, buffer[index] == UInt8(ascii: "\"") {
                let start = index
                pass.captured = try parseString()
                index = start
            }
            switch treatment {
            case .copy: try rewriteValue(depth: depth, copying: true, into: &out, pass: &pass)
            case .rewrite: try rewriteValue(depth: depth, copying: false, into: &out, pass: &pass)
            case .secret: try rewriteSecret(depth: depth, into: &out, pass: &pass)
            }
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input inside an object") }
            let byte = buffer[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") {
                out.append(UInt8(ascii: "}"))
                return
            }
            index -= 1
            throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
        }
    }

    /// A secret member's value: null stays null; a string, or the compact JSON of anything
    /// else, is replaced by the rules' placeholder.
    mutating func rewriteSecret<Rules>(depth: Int, into out: inout [UInt8], pass: inout RewritePass<Rules>) throws(JSONParseError) {
        guard index < end else { throw failure("unexpected end of input, expected a value") }
        switch buffer[index] {
        case UInt8(ascii: "n"):
            try rewriteValue(depth: depth, copying: true, into: &out, pass: &pass)
        case UInt8(ascii: "\""):
            CanonicalJSON.appendString(pass.rules.secret(try parseString()), to: &out)
        default:
            let value = try parseValue(depth: depth)
            CanonicalJSON.appendString(pass.rules.secret(CanonicalJSON.compact(value)), to: &out)
        }
    }

    mutating func rewriteArray<Rules>(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass<Rules>)
        throws(JSONParseError)
    {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        out.append(UInt8(ascii: "["))
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "]") {
            index += 1
            out.append(UInt8(ascii: "]"))
            return
        }
        var first = true
        while true {
            skipWhitespace()
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            try rewriteValue(depth: depth, copying: copying, into: &out, pass: &pass)
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input inside an array") }
            let byte = buffer[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") {
                out.append(UInt8(ascii: "]"))
                return
            }
            index -= 1
            throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }
}
