import Foundation
import Testing

@testable import KizunaWire

// A deterministic, structure-aware differential fuzz harness for JSONParser.
//
// Each iteration generates a random JSON document whose value is known by construction (with
// random whitespace and random choices among equivalent escapes), then:
//   1. the document must parse to exactly that value and survive render → parse;
//   2. a mutation that is invalid by construction (truncation, a raw control byte or invalid
//      UTF-8 inside a string, a trailing comma, a lone surrogate, a leading zero, ...) must be
//      refused, and where the position is known the error must name it;
//   3. random byte mutations, whose validity is not known, must not crash the parser and must be
//      accepted or refused exactly as an independent reference recognizer (below) decides.
//
// Set KIZUNAWIRE_FUZZ_DUMP=<dir> to also write every generated document and the parser's verdict
// there (MANIFEST.tsv: name, accept|reject), for an external cross-check, e.g. against Python's
// json module with NaN/Infinity refused, lone surrogates refused and depth capped at 512.
// Set KIZUNAWIRE_FUZZ_ITERATIONS=<n> for a longer run.

/// SplitMix64: small, fast, and the same sequence on every platform.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// A generated document and the facts about its bytes that mutations need.
struct GeneratedDocument {
    var bytes: [UInt8] = []
    /// For each string literal: the offset just after its opening quote and the offset of its closing quote.
    var strings: [(open: Int, close: Int)] = []
    /// Offsets inside string contents where a complete character encoding starts (or the closing quote).
    var characterStarts: [Int] = []
    /// Offsets of structural `]` / `}` and whether their container is empty.
    var closers: [(offset: Int, empty: Bool)] = []
    /// Offsets of number literals (first byte, `-` included) and of their first digit.
    var numbers: [(start: Int, firstDigit: Int)] = []
    /// Offsets of member colons and of element/member commas.
    var colons: [Int] = []
    var commas: [Int] = []
    /// Offsets between tokens where whitespace is allowed.
    var gaps: [Int] = []
    /// Whether the top-level value is an array or object.
    var topIsContainer = false
}

/// Generates random JSON values together with a randomly formatted serialization.
struct DocumentGenerator {
    var rng: SplitMix64
    var doc = GeneratedDocument()

    init(seed: UInt64) { rng = SplitMix64(state: seed) }

    mutating func document() -> (GeneratedDocument, JSONValue) {
        doc = GeneratedDocument()
        gap()
        let container = rng.chance(85)
        doc.topIsContainer = container
        let value = container ? (rng.chance(50) ? array(depth: 1) : object(depth: 1)) : scalar()
        gap()
        return (doc, value)
    }

    // MARK: whitespace

    mutating func gap() {
        doc.gaps.append(doc.bytes.count)
        guard rng.chance(35) else { return }
        let pieces: [[UInt8]] = [[0x20], [0x0A], [0x09], [0x0D, 0x0A], [0x20, 0x20], [0x0D], [0x0A, 0x20, 0x20, 0x20, 0x20]]
        for _ in 0..<(1 + rng.below(2)) { doc.bytes += rng.pick(pieces) }
    }

    // MARK: values

    mutating func value(depth: Int) -> JSONValue {
        let roll = rng.below(100)
        if depth < 5 && roll < 15 { return array(depth: depth + 1) }
        if depth < 5 && roll < 30 { return object(depth: depth + 1) }
        return scalar()
    }

    mutating func scalar() -> JSONValue {
        switch rng.below(10) {
        case 0:
            doc.bytes += Array("null".utf8)
            return .null
        case 1:
            let flag = rng.chance(50)
            doc.bytes += Array((flag ? "true" : "false").utf8)
            return .bool(flag)
        case 2, 3, 4: return .number(number())
        default: return .string(string(maxLength: 10))
        }
    }

    mutating func array(depth: Int) -> JSONValue {
        doc.bytes.append(UInt8(ascii: "["))
        var elements: [JSONValue] = []
        let count = rng.below(6)
        for index in 0..<count {
            if index > 0 {
                doc.commas.append(doc.bytes.count)
                doc.bytes.append(UInt8(ascii: ","))
            }
            gap()
            elements.append(value(depth: depth))
            gap()
        }
        if count == 0 { gap() }
        doc.closers.append((doc.bytes.count, count == 0))
        doc.bytes.append(UInt8(ascii: "]"))
        return .array(elements)
    }

    mutating func object(depth: Int) -> JSONValue {
        doc.bytes.append(UInt8(ascii: "{"))
        var members: [JSONObject.Member] = []
        let count = rng.below(6)
        for index in 0..<count {
            if index > 0 {
                doc.commas.append(doc.bytes.count)
                doc.bytes.append(UInt8(ascii: ","))
            }
            gap()
            let key: String
            if let previous = members.last?.key, rng.chance(10) {
                key = previous  // duplicate keys are valid JSON
                appendKnownString(previous)
            } else {
                key = string(maxLength: 6)
            }
            gap()
            doc.colons.append(doc.bytes.count)
            doc.bytes.append(UInt8(ascii: ":"))
            gap()
            members.append(JSONObject.Member(key: key, value: value(depth: depth)))
            gap()
        }
        if count == 0 { gap() }
        doc.closers.append((doc.bytes.count, count == 0))
        doc.bytes.append(UInt8(ascii: "}"))
        return .object(JSONObject(members))
    }

    mutating func number() -> JSONNumber {
        let start = doc.bytes.count
        var literal = ""
        if rng.chance(30) { literal += "-" }
        let firstDigit = start + literal.utf8.count
        if rng.chance(20) {
            literal += "0"
        } else {
            literal += String(1 + rng.below(9))
            let length = rng.chance(15) ? 15 + rng.below(20) : rng.below(4)
            for _ in 0..<length { literal += String(rng.below(10)) }
        }
        if rng.chance(25) {
            literal += "."
            for _ in 0..<(1 + rng.below(rng.chance(10) ? 25 : 4)) { literal += String(rng.below(10)) }
        }
        if rng.chance(15) {
            literal += rng.pick(["e", "E"]) + rng.pick(["", "+", "-"])
            for _ in 0..<(1 + rng.below(3)) { literal += String(rng.below(10)) }
        }
        doc.bytes += Array(literal.utf8)
        doc.numbers.append((start, firstDigit))
        return JSONNumber(literal: literal)
    }

    /// A random string, written with random (but valid) escape choices.
    mutating func string(maxLength: Int) -> String {
        var scalars: [Unicode.Scalar] = []
        for _ in 0..<rng.below(maxLength + 1) { scalars.append(randomScalar()) }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        let string = String(text)
        appendKnownString(string)
        return string
    }

    mutating func randomScalar() -> Unicode.Scalar {
        switch rng.below(12) {
        case 0: return Unicode.Scalar(UInt8(rng.below(0x20)))
        case 1: return rng.pick(["\"", "\\", "/", "\u{7F}"])
        case 2: return rng.pick(["é", "ß", "中", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{E000}", "\u{301}", "\u{D7FF}"])
        case 3:
            var value = UInt32(0x80 + rng.below(0xFFFF - 0x80))
            if (0xD800...0xDFFF).contains(value) { value -= 0x800 }
            return Unicode.Scalar(value) ?? "?"
        case 4: return Unicode.Scalar(UInt32(0x10000 + rng.below(0x100000))) ?? "?"
        default: return Unicode.Scalar(UInt8(0x20 + rng.below(0x5F)))
        }
    }

    /// Writes `string` as a JSON string literal with random escape choices, recording positions.
    mutating func appendKnownString(_ string: String) {
        doc.bytes.append(UInt8(ascii: "\""))
        let open = doc.bytes.count
        for scalar in string.unicodeScalars {
            doc.characterStarts.append(doc.bytes.count)
            let value = scalar.value
            let short: [UInt32: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x08: 0x62, 0x0C: 0x66, 0x0A: 0x6E, 0x0D: 0x72, 0x09: 0x74]
            if let letter = short[value] {
                // quote, backslash and control characters must be escaped: short form or \uXXXX
                if rng.chance(75) { doc.bytes += [0x5C, letter] } else { appendUnicodeEscape(value) }
            } else if value == 0x2F && rng.chance(30) {
                doc.bytes += [0x5C, 0x2F]
            } else if value < 0x20 || rng.chance(value >= 0x80 ? 30 : 5) {
                appendUnicodeEscape(value)
            } else {
                doc.bytes += Array(String(Character(scalar)).utf8)
            }
        }
        doc.characterStarts.append(doc.bytes.count)
        doc.strings.append((open, doc.bytes.count))
        doc.bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendUnicodeEscape(_ value: UInt32) {
        if value >= 0x10000 {
            let offset = value - 0x10000
            appendHex4(0xD800 + (offset >> 10))
            appendHex4(0xDC00 + (offset & 0x3FF))
        } else {
            appendHex4(value)
        }
    }

    mutating func appendHex4(_ unit: UInt32) {
        let digits = rng.chance(50) ? "0123456789abcdef" : "0123456789ABCDEF"
        let table = Array(digits.utf8)
        doc.bytes += [0x5C, UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) { doc.bytes.append(table[Int((unit >> UInt32(shift)) & 0xF)]) }
    }
}

/// An independent RFC 8259 recognizer (accept/reject only): iterative with an explicit stack,
/// with its own UTF-8 decoder (Unicode Table 3-7) and surrogate rules. Nesting deeper than
/// `maximumDepth` containers is refused, as JSONParser documents.
enum ReferenceRecognizer {
    static func accepts(_ b: [UInt8], maximumDepth: Int = JSONParser.maximumDepth) -> Bool {
        enum State { case value, firstElement, firstKey, key, colon, next, done }
        var i = 0
        var stack: [UInt8] = []
        var state = State.value

        func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 } }
        func isDigit(_ x: UInt8) -> Bool { x >= 0x30 && x <= 0x39 }
        func hex4() -> UInt32? {
            guard i + 4 <= b.count else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = b[i + k]
                let d: UInt32
                if isDigit(c) {
                    d = UInt32(c - 0x30)
                } else if c >= 0x61 && c <= 0x66 {
                    d = UInt32(c - 0x57)
                } else if c >= 0x41 && c <= 0x46 {
                    d = UInt32(c - 0x37)
                } else {
                    return nil
                }
                v = v * 16 + d
            }
            i += 4
            return v
        }
        func utf8Sequence() -> Bool {
            let lead = b[i]
            let (count, low, high): (Int, UInt8, UInt8)
            switch lead {
            case 0xC2...0xDF: (count, low, high) = (1, 0x80, 0xBF)
            case 0xE0: (count, low, high) = (2, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE, 0xEF: (count, low, high) = (2, 0x80, 0xBF)
            case 0xED: (count, low, high) = (2, 0x80, 0x9F)
            case 0xF0: (count, low, high) = (3, 0x90, 0xBF)
            case 0xF1...0xF3: (count, low, high) = (3, 0x80, 0xBF)
            case 0xF4: (count, low, high) = (3, 0x80, 0x8F)
            default: return false
            }
            guard i + count < b.count else { return false }
            guard b[i + 1] >= low && b[i + 1] <= high else { return false }
            if count >= 2 {
                for k in 2...count where b[i + k] < 0x80 || b[i + k] > 0xBF { return false }
            }
            i += count + 1
            return true
        }
        func string() -> Bool {
            i += 1  // opening quote
            while i < b.count {
                let c = b[i]
                if c == 0x22 {
                    i += 1
                    return true
                } else if c < 0x20 {
                    return false
                } else if c == 0x5C {
                    i += 1
                    guard i < b.count else { return false }
                    let e = b[i]
                    i += 1
                    if "\"\\/bfnrt".utf8.contains(e) { continue }
                    guard e == UInt8(ascii: "u"), let unit = hex4() else { return false }
                    if unit >= 0xDC00 && unit <= 0xDFFF { return false }
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        guard i + 1 < b.count, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u") else { return false }
                        i += 2
                        guard let low = hex4(), low >= 0xDC00 && low <= 0xDFFF else { return false }
                    }
                } else if c < 0x80 {
                    i += 1
                } else if !utf8Sequence() {
                    return false
                }
            }
            return false
        }
        func number() -> Bool {
            if b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, isDigit(b[i]) else { return false }
            if b[i] == 0x30 {
                i += 1
            } else {
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard i < b.count, isDigit(b[i]) else { return false }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard i < b.count, isDigit(b[i]) else { return false }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            // a digit right after a complete number (e.g. "01") is never valid
            return !(i < b.count && isDigit(b[i]))
        }
        func literal(_ word: String) -> Bool {
            let bytes = Array(word.utf8)
            guard i + bytes.count <= b.count, Array(b[i..<(i + bytes.count)]) == bytes else { return false }
            i += bytes.count
            return true
        }

        while true {
            skipSpace()
            switch state {
            case .done:
                return i == b.count
            case .value, .firstElement:
                guard i < b.count else { return false }
                let c = b[i]
                if state == .firstElement && c == UInt8(ascii: "]") {
                    i += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .done : .next
                    continue
                }
                switch c {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    guard stack.count < maximumDepth else { return false }
                    stack.append(c)
                    i += 1
                    state = c == UInt8(ascii: "[") ? .firstElement : .firstKey
                    continue
                case 0x22: guard string() else { return false }
                case UInt8(ascii: "t"): guard literal("true") else { return false }
                case UInt8(ascii: "f"): guard literal("false") else { return false }
                case UInt8(ascii: "n"): guard literal("null") else { return false }
                case UInt8(ascii: "-"), 0x30...0x39: guard number() else { return false }
                default: return false
                }
                state = stack.isEmpty ? .done : .next
            case .firstKey, .key:
                guard i < b.count else { return false }
                if state == .firstKey && b[i] == UInt8(ascii: "}") {
                    i += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .done : .next
                    continue
                }
                guard b[i] == 0x22, string() else { return false }
                state = .colon
            case .colon:
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                i += 1
                state = .value
            case .next:
                guard i < b.count, let top = stack.last else { return false }
                let c = b[i]
                i += 1
                if c == UInt8(ascii: ",") {
                    state = top == UInt8(ascii: "[") ? .value : .key
                } else if c == (top == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                    stack.removeLast()
                    state = stack.isEmpty ? .done : .next
                } else {
                    return false
                }
            }
        }
    }
}

/// Structural equality with strings compared by their UTF-8 bytes (Swift's `==` on String
/// would treat canonically equivalent strings as equal and hide a decoding bug).
func sameBytes(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x.literal == y.literal
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameBytes($0, $1) }
    case (.object(let x), .object(let y)):
        return x.count == y.count
            && zip(x.members, y.members).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && sameBytes($0.value, $1.value) }
    default: return false
    }
}

/// The parser's verdict on `bytes`, with the error's position checked for consistency.
private func parserVerdict(_ bytes: [UInt8]) -> (accepted: Bool, value: JSONValue?, error: JSONParseError?) {
    do {
        let value = try JSONParser.parse(bytes)
        return (true, value, nil)
    } catch {
        return (false, nil, error)
    }
}

/// Checks that an error's line and column agree with its offset.
private func positionIsConsistent(_ error: JSONParseError, in bytes: [UInt8]) -> Bool {
    guard error.offset >= 0, error.offset <= bytes.count else { return false }
    let before = bytes[..<error.offset]
    let line = 1 + before.count(where: { $0 == 0x0A })
    let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
    return error.line == line && error.column == error.offset - lineStart + 1
}

@Suite("JSON differential fuzz")
struct JSONFuzzTests {
    /// 2,000 by default; KIZUNAWIRE_FUZZ_ITERATIONS overrides it for a longer run.
    static let iterations = ProcessInfo.processInfo.environment["KIZUNAWIRE_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 2_000
    static let seed: UInt64 = 0x4B49_5A55_4E41_0001

    /// The known-invalid mutation kinds.
    enum Breakage: CaseIterable {
        case truncate, truncateInsideString, controlByteInString, trailingComma, invalidUTF8InString, loneSurrogate
        case leadingZero, badEscape, missingColon, missingComma, mismatchedCloser, trailingGarbage, badWhitespace
    }

    /// Breaks a valid document in a way that is invalid by construction; returns nil when the
    /// document has nothing to break that way. `offset` is the error offset when it is known.
    static func breaking(_ doc: GeneratedDocument, _ kind: Breakage, _ rng: inout SplitMix64) -> (bytes: [UInt8], offset: Int?)? {
        var bytes = doc.bytes
        func nextNonSpace(from start: Int) -> Int {
            var index = start
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return index
        }
        switch kind {
        case .truncate:
            guard doc.topIsContainer, let last = doc.closers.last else { return nil }
            return (Array(bytes[..<rng.below(last.offset + 1)]), nil)
        case .truncateInsideString:
            guard let string = doc.strings.randomElement(using: &rng) else { return nil }
            return (Array(bytes[..<(string.open + rng.below(string.close - string.open + 1))]), nil)
        case .controlByteInString:
            guard let string = doc.strings.randomElement(using: &rng) else { return nil }
            // anywhere in the content, even inside an escape or a multi-byte character
            let at = string.open + rng.below(string.close - string.open + 1)
            bytes.insert(UInt8(rng.below(0x20)), at: at)
            return (bytes, doc.characterStarts.contains(at) ? at : nil)
        case .trailingComma:
            guard let closer = doc.closers.randomElement(using: &rng) else { return nil }
            bytes.insert(UInt8(ascii: ","), at: closer.offset)
            return (bytes, closer.empty ? closer.offset : closer.offset + 1)
        case .invalidUTF8InString:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            let bad: [[UInt8]] = [
                [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0x81], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
            ]
            bytes.insert(contentsOf: rng.pick(bad), at: at)
            return (bytes, nil)
        case .loneSurrogate:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: Array(rng.pick(["\\ud800", "\\uDBFF", "\\udc00", "\\uDFFF", "\\ud83d"]).utf8), at: at)
            return (bytes, at)
        case .leadingZero:
            guard let number = doc.numbers.randomElement(using: &rng) else { return nil }
            bytes.insert(UInt8(ascii: "0"), at: number.firstDigit)
            return (bytes, number.start)
        case .badEscape:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: [0x5C, rng.pick(Array("xUa'0 v%".utf8) + [0x01, 0xC3])], at: at)
            return (bytes, at)
        case .missingColon:
            guard let colon = doc.colons.randomElement(using: &rng) else { return nil }
            bytes[colon] = 0x20
            return (bytes, nextNonSpace(from: colon))
        case .missingComma:
            guard let comma = doc.commas.randomElement(using: &rng) else { return nil }
            bytes[comma] = 0x20
            return (bytes, nextNonSpace(from: comma))
        case .mismatchedCloser:
            guard let closer = doc.closers.randomElement(using: &rng) else { return nil }
            bytes[closer.offset] = bytes[closer.offset] == UInt8(ascii: "]") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            return (bytes, closer.offset)
        case .trailingGarbage:
            let junk = rng.pick(["]", "}", ",", ":", "x", "{}", "1", "\"\"", "[]", "null"])
            let spacer = rng.pick(["", " ", "\n"])
            if spacer.isEmpty, !doc.topIsContainer, junk == "1" || junk == "null" { return nil }  // "11" or "truenull" merge
            bytes += Array((spacer + junk).utf8)
            return (bytes, doc.bytes.count + spacer.utf8.count)
        case .badWhitespace:
            guard let at = doc.gaps.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: rng.pick([[0x0C], [0x0B], [0xC2, 0xA0], [0xEF, 0xBB, 0xBF], [0x00], [0xE3, 0x80, 0x80]]), at: at)
            return (bytes, at)
        }
    }

    /// Changes one to three bytes at random; the result may or may not be valid.
    static func randomMutation(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        let alphabet: [UInt8] =
            Array("[]{}:,\"\\ue-+.0123456789tfnaEx/ \n\t\r".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        for _ in 0..<(1 + rng.below(3)) {
            switch rng.below(4) {
            case 0 where !out.isEmpty: out[rng.below(out.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 1 where !out.isEmpty: out.remove(at: rng.below(out.count))
            case 2: out.insert(rng.pick(alphabet), at: rng.below(out.count + 1))
            default:
                if !out.isEmpty { out[rng.below(out.count)] = rng.pick(alphabet) }
            }
        }
        return out
    }

    @Test("generated documents, known-invalid mutations and random mutations agree with the reference")
    func differentialFuzz() throws {
        var generator = DocumentGenerator(seed: Self.seed)
        var mutationRNG = SplitMix64(state: Self.seed ^ 0xFFFF)
        let dump = ProcessInfo.processInfo.environment["KIZUNAWIRE_FUZZ_DUMP"].map { URL(fileURLWithPath: $0) }
        var manifest: [String] = []
        func record(_ name: String, _ bytes: [UInt8], _ accepted: Bool) throws {
            guard let dump else { return }
            try Data(bytes).write(to: dump.appendingPathComponent(name))
            manifest.append("\(name)\t\(accepted ? "accept" : "reject")")
        }

        var breakageCounts: [Breakage: Int] = [:]
        var randomAccepted = 0
        var randomRejected = 0
        var failures = 0

        for iteration in 0..<Self.iterations {
            guard failures < 20 else { break }  // keep a broken run readable
            let (doc, expected) = generator.document()

            // 1. the valid document parses to the generated value and round-trips
            let valid = parserVerdict(doc.bytes)
            try record("\(iteration)-valid.json", doc.bytes, valid.accepted)
            guard let parsed = valid.value else {
                failures += 1
                Issue.record(
                    "valid document \(iteration) refused: \(valid.error!) in \(String(decoding: doc.bytes, as: UTF8.self).debugDescription)"
                )
                continue
            }
            if !sameBytes(parsed, expected) {
                failures += 1
                Issue.record(
                    "document \(iteration) parsed to the wrong value: \(String(decoding: doc.bytes, as: UTF8.self).debugDescription)")
            }
            #expect(ReferenceRecognizer.accepts(doc.bytes), "the reference refuses valid document \(iteration)")
            let rendered = CanonicalJSON.render(parsed)
            let reparsed = try JSONParser.parse(rendered)
            // rendering sorts members (stably, so duplicate keys keep their order)
            if !sameBytes(reparsed, parsed.sortedKeys()) || CanonicalJSON.render(reparsed) != rendered {
                failures += 1
                Issue.record("document \(iteration) does not survive render → parse")
            }
            #expect(!CanonicalJSON.violations(raw: rendered, value: reparsed).contains { $0.clause == "C-7" || $0.clause == "C-1" })
            let compact = Array(CanonicalJSON.compact(parsed).utf8)
            #expect(sameBytes(try JSONParser.parse(compact), reparsed.sortedKeys()), "compact form of \(iteration)")

            // 2. mutations that are invalid by construction are refused, at the right place
            for round in 0..<2 {
                let kind = Breakage.allCases[mutationRNG.below(Breakage.allCases.count)]
                guard let breakage = Self.breaking(doc, kind, &mutationRNG) else { continue }
                let (broken, offset) = breakage
                breakageCounts[kind, default: 0] += 1
                let verdict = parserVerdict(broken)
                try record("\(iteration)-\(kind)\(round).json", broken, verdict.accepted)
                guard let error = verdict.error else {
                    failures += 1
                    Issue.record(
                        "\(kind) of document \(iteration) was accepted: \(String(decoding: broken, as: UTF8.self).debugDescription)")
                    continue
                }
                if !positionIsConsistent(error, in: broken) {
                    failures += 1
                    Issue.record("\(kind) of document \(iteration): inconsistent position \(error)")
                }
                if let offset, error.offset != offset {
                    failures += 1
                    Issue.record(
                        "\(kind) of document \(iteration): error at \(error.offset), expected \(offset): \(error) in \(String(decoding: broken, as: UTF8.self).debugDescription)"
                    )
                }
                if ReferenceRecognizer.accepts(broken) {
                    failures += 1
                    Issue.record("the reference accepts \(kind) of document \(iteration)")
                }
            }

            // 3. random byte mutations: no crash, and the same verdict as the reference
            for round in 0..<2 {
                let mutated = Self.randomMutation(doc.bytes, &mutationRNG)
                let verdict = parserVerdict(mutated)
                try record("\(iteration)-random\(round).json", mutated, verdict.accepted)
                let reference = ReferenceRecognizer.accepts(mutated)
                if verdict.accepted != reference {
                    failures += 1
                    Issue.record(
                        "random mutation of document \(iteration): parser \(verdict.accepted ? "accepts" : "refuses (\(verdict.error!))"), reference \(reference ? "accepts" : "refuses"): \(mutated)"
                    )
                }
                if let error = verdict.error, !positionIsConsistent(error, in: mutated) {
                    failures += 1
                    Issue.record("random mutation of document \(iteration): inconsistent position \(error)")
                }
                if let value = verdict.value {
                    randomAccepted += 1
                    let again = CanonicalJSON.render(value)
                    if !sameBytes(try JSONParser.parse(again), value.sortedKeys()) {
                        failures += 1
                        Issue.record("accepted mutation of document \(iteration) does not survive render → parse")
                    }
                } else {
                    randomRejected += 1
                }
            }
        }

        if let dump {
            try (manifest.joined(separator: "\n") + "\n").write(
                to: dump.appendingPathComponent("MANIFEST.tsv"), atomically: true, encoding: .utf8)
        }
        // every breakage kind was exercised, and random mutations hit both outcomes
        for kind in Breakage.allCases { #expect(breakageCounts[kind, default: 0] > Self.iterations / 100, "\(kind) exercised") }
        #expect(randomAccepted > Self.iterations / 40)
        #expect(randomRejected > Self.iterations / 2)
        #expect(failures == 0)
    }

    @Test("the reference recognizer agrees with the parser's unit cases")
    func referenceSanity() {
        for (text, _) in JSONParserTests.acceptCases {
            #expect(ReferenceRecognizer.accepts(Array(text.utf8)), "\(text.debugDescription)")
        }
        for text in JSONParserTests.rejectCases {
            #expect(!ReferenceRecognizer.accepts(Array(text.utf8)), "\(text.debugDescription)")
        }
        for bad in JSONParserTests.invalidUTF8 {
            #expect(!ReferenceRecognizer.accepts([0x22] + bad + [0x22]))
        }
        let depth = JSONParser.maximumDepth
        #expect(ReferenceRecognizer.accepts(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)))
        #expect(
            !ReferenceRecognizer.accepts(Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8)))
    }

    @Test("the generator is deterministic")
    func deterministic() {
        var first = DocumentGenerator(seed: 7)
        var second = DocumentGenerator(seed: 7)
        for _ in 0..<20 { #expect(first.document().0.bytes == second.document().0.bytes) }
    }
}

extension JSONValue {
    /// The same value with every object's members in canonical (byte-sorted) order.
    func sortedKeys() -> JSONValue {
        switch self {
        case .array(let elements): return .array(elements.map { $0.sortedKeys() })
        case .object(let object):
            return .object(JSONObject(CanonicalJSON.sortedMembers(object).map { .init(key: $0.key, value: $0.value.sortedKeys()) }))
        default: return self
        }
    }
}

extension SplitMix64: RandomNumberGenerator {}
