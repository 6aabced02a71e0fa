/// A strict RFC 8259 JSON parser over UTF-8 bytes that keeps number literals and member order.
///
/// It refuses what the RFC refuses (trailing commas, leading zeros, control characters in
/// strings, invalid UTF-8, lone surrogates) and nests at most `maximumDepth` levels deep.
public struct JSONParser: Sendable {
    /// The deepest nesting accepted; deeper input is refused rather than risking the stack.
    public static let maximumDepth = 512

    /// Parses one JSON document that fills `bytes` (surrounding whitespace allowed).
    /// - Parameter bytes: the UTF-8 document.
    /// - Returns: the parsed value.
    /// - Throws: `JSONParseError` naming the byte offset, line and column of the problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var result: Result<JSONValue, JSONParseError> = .success(.null)
        bytes.withUnsafeBufferPointer { buffer in
            result = parse(buffer)
        }
        return try result.get()
    }

    /// Parses one JSON document that fills `buffer` (surrounding whitespace allowed).
    /// - Parameter buffer: the UTF-8 document.
    /// - Returns: the parsed value, or the error naming where parsing stopped.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var cursor = JSONScanner(buffer: buffer)
        do throws(JSONParseError) {
            cursor.skipWhitespace()
            let value = try cursor.parseValue(depth: 0)
            cursor.skipWhitespace()
            if cursor.index < cursor.end {
                throw cursor.failure("unexpected \(cursor.describeCurrent()) after the document")
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// Parses a document given as a string.
    /// - Parameter text: the document.
    /// - Returns: the parsed value.
    /// - Throws: `JSONParseError` naming where parsing stopped.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

struct JSONScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var index = 0
    let end: Int

    init(buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.end = buffer.count
    }

    func failure(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset ?? index, in: buffer)
    }

    func describeCurrent() -> String {
        guard index < end else { return "end of input" }
        let byte = buffer[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < end {
            let byte = buffer[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 } else { return }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < end else { throw failure("unexpected end of input, expected a value") }
        switch buffer[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard end - index >= count else { throw failure("invalid literal", at: start) }
        let pointer = literal.utf8Start
        for offset in 0..<count where buffer[index + offset] != pointer[offset] {
            throw failure("invalid literal", at: start)
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < end, buffer[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input inside an object") }
            let byte = buffer[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { return .object(JSONObject(members)) }
            index -= 1
            throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < end && buffer[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < end else { throw failure("unexpected end of input inside an array") }
            let byte = buffer[index]
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { return .array(elements) }
            index -= 1
            throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let range = try scanNumber()
        return JSONNumber(literal: String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self))
    }

    /// Moves past a number and returns where its literal lies.
    mutating func scanNumber() throws(JSONParseError) -> Range<Int> {
        let start = index
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end, isDigit(buffer[index]) else { throw failure("invalid number", at: start) }
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
            if index < end && isDigit(buffer[index]) { throw failure("number with a leading zero", at: start) }
        } else {
            while index < end && isDigit(buffer[index]) { index += 1 }
        }
        if index < end && buffer[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, isDigit(buffer[index]) else { throw failure("invalid number fraction", at: start) }
            while index < end && isDigit(buffer[index]) { index += 1 }
        }
        if index < end && (buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E")) {
            index += 1
            if index < end && (buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < end, isDigit(buffer[index]) else { throw failure("invalid number exponent", at: start) }
            while index < end && isDigit(buffer[index]) { index += 1 }
        }
        return start..<index
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        let start = index
        var ascii = true
        while index < end {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw failure("invalid UTF-8 in a string", at: open)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw failure("unescaped control character in a string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw failure("unterminated string", at: open)
    }

    mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        while index < end {
            let byte = buffer[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw failure("invalid UTF-8 in a string", at: start - 1)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < end else { break }
                let escape = buffer[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: index - 2)
                }
            default:
                if byte < 0x20 { throw failure("unescaped control character in a string") }
                bytes.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string", at: start - 1)
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard end - index >= 4 else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = buffer[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let start = index - 2
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard end - index >= 6, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") else {
                throw failure("lone high surrogate in a \\u escape", at: start)
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("invalid surrogate pair", at: start) }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw failure("invalid surrogate pair", at: start) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("lone low surrogate in a \\u escape", at: start) }
        return scalar
    }
}
