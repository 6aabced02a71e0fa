import Foundation
import JSON
import Testing

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
