/// Objects, arrays and secret members for `JSONRewriter`. Separators are added to the output
/// where the input has them, so a compact document stays one run of unchanged input.
extension JSONScanner {
    mutating func rewriteObject(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass)
        throws(JSONParseError)
    {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        keep(index, index + 1, &pass, into: &out)
        index += 1
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "}") {
            keep(index, index + 1, &pass, into: &out)
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key, found \(describeCurrent())")
            }
            var treatment = JSONMemberTreatment.copy
            var captures = false
            if copying {
                try rewriteString(copying: true, into: &out, pass: &pass)
            } else {
                let open = index
                if let (count, known) = pass.predictedKey(in: buffer, at: open) {
                    index = open + count + 2
                    keep(open, index, &pass, into: &out)
                    treatment = known
                    if depth == 1 { captures = pass.claimsCapture(UnsafeBufferPointer(rebasing: buffer[(open + 1)..<(open + 1 + count)])) }
                } else if let plain = try scanPlainString() {
                    keep(open, index, &pass, into: &out)
                    let key = UnsafeBufferPointer(rebasing: buffer[plain])
                    treatment = pass.treatment(ofMember: key)
                    if depth == 1 { captures = pass.claimsCapture(key) }
                } else {
                    var key = try parseString()
                    flushRun(&pass, into: &out)
                    CanonicalJSON.appendString(key, to: &out)
                    key.withUTF8 { key in
                        treatment = pass.treatment(ofMember: key)
                        if depth == 1 { captures = pass.claimsCapture(key) }
                    }
                }
            }
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            keep(index, index + 1, &pass, into: &out)
            index += 1
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
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") {
                keep(index, index + 1, &pass, into: &out)
                index += 1
                if byte == UInt8(ascii: "}") { return }
                continue
            }
            throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
        }
    }

    /// A secret member's value: null stays null; a string, or the compact JSON of anything
    /// else, is replaced by the rules' placeholder.
    mutating func rewriteSecret(depth: Int, into out: inout [UInt8], pass: inout RewritePass) throws(JSONParseError) {
        guard index < end else { throw failure("unexpected end of input, expected a value") }
        switch buffer[index] {
        case UInt8(ascii: "n"):
            try rewriteValue(depth: depth, copying: true, into: &out, pass: &pass)
        case UInt8(ascii: "\""):
            let placeholder = pass.rules.secret(try parseString())
            flushRun(&pass, into: &out)
            CanonicalJSON.appendString(placeholder, to: &out)
        default:
            let value = try parseValue(depth: depth)
            let placeholder = pass.rules.secret(CanonicalJSON.compact(value))
            flushRun(&pass, into: &out)
            CanonicalJSON.appendString(placeholder, to: &out)
        }
    }

    mutating func rewriteArray(depth: Int, copying: Bool, into out: inout [UInt8], pass: inout RewritePass)
        throws(JSONParseError)
    {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        keep(index, index + 1, &pass, into: &out)
        index += 1
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "]") {
            keep(index, index + 1, &pass, into: &out)
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try rewriteValue(depth: depth, copying: copying, into: &out, pass: &pass)
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input inside an array") }
            let byte = buffer[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                keep(index, index + 1, &pass, into: &out)
                index += 1
                if byte == UInt8(ascii: "]") { return }
                continue
            }
            throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }
}
