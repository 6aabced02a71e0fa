import Foundation
import JSON
import Testing

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
