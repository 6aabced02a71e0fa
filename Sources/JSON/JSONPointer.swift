import Foundation

/// An RFC 6901 JSON pointer, used to say where in a document a problem is.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// Whether a reference token is an array index (RFC 6901 §4): "0", or digits without a
    /// leading zero, no sign.
    static func isArrayIndex(_ token: String) -> Bool {
        guard let first = token.utf8.first else { return false }
        if first == UInt8(ascii: "0") { return token.utf8.count == 1 }
        return token.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The reference tokens, unescaped.
    public private(set) var tokens: [String]

    /// The pointer to the whole document ("").
    public static let root = JSONPointer(tokens: [])

    /// Makes a pointer from unescaped tokens.
    /// - Parameter tokens: the reference tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the textual form, e.g. `/steps/3/response`.
    /// - Parameter text: the pointer text; "" is the root.
    public init?(_ text: String) {
        if text.isEmpty {
            self.tokens = []
            return
        }
        guard text.hasPrefix("/") else { return nil }
        self.tokens = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The pointer one level down, at an object key.
    /// - Parameter key: the member key.
    /// - Returns: the child pointer.
    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    /// The pointer one level down, at an array index.
    /// - Parameter index: the element index.
    /// - Returns: the child pointer.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// Both pointers joined: `self` followed by every token of `other`.
    /// - Parameter other: the relative pointer.
    /// - Returns: the joined pointer.
    public func appending(_ other: JSONPointer) -> JSONPointer {
        var copy = self
        copy.tokens.append(contentsOf: other.tokens)
        return copy
    }

    /// The textual form, with `~` and `/` escaped.
    public var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }

    /// The pointer as a message shows it to a person: the RFC 6901 text ("/" for the root), then,
    /// when a key had to be escaped (a case id such as `fencing/001-…` holds a `/`), that key as
    /// written, so `~1` never stands alone in prose:
    /// `/cases/fencing~1001-late-commit-delivered/next_seq (the key "fencing/001-late-commit-delivered")`.
    public var readable: String {
        let text = tokens.isEmpty ? "/" : description
        let escaped = tokens.filter { $0.contains("/") || $0.contains("~") }
        guard !escaped.isEmpty else { return text }
        let keys = escaped.map { "\"\($0)\"" }.joined(separator: ", ")
        return text + " (the key\(escaped.count == 1 ? "" : "s") \(keys))"
    }

    /// Orders pointers by their text.
    /// - Returns: whether `lhs` orders before `rhs`.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.description < rhs.description }
}

extension JSONValue {
    /// The value a pointer names inside this value, if present.
    /// - Parameter pointer: the pointer to resolve.
    /// - Returns: the value, or nil when a token names nothing.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                // RFC 6901: an array index is "0" or digits without a leading zero (no sign, no "01").
                guard JSONPointer.isArrayIndex(token), let index = Int(token), array.indices.contains(index) else {
                    return nil
                }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}
