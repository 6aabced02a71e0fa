import Foundation

/// A parsed JSON value that keeps number literals and object member order exactly as written.
///
/// Numbers are stored as their literal text so that decimal values and integers past 2^53
/// survive a round trip without passing through `Double`.
public enum JSONValue: Sendable, Hashable {
    /// The `null` literal.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, members in source order (duplicates kept, see `JSONObject`).
    case object(JSONObject)
}

/// A JSON number kept as the exact literal text it was written with.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal text, e.g. `"42"` or `"-1.5e3"`.
    public let literal: String

    /// Wraps a literal that the caller has already validated against the JSON number grammar.
    /// - Parameter literal: the number's text.
    public init(literal: String) { self.literal = literal }

    /// Makes a number from an integer.
    public init(_ value: Int) { self.literal = String(value) }

    /// The text of the literal.
    public var description: String { literal }

    /// True when the literal is an integer (no fraction and no exponent).
    public var isInteger: Bool {
        !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as `Int`, when the literal is an integer that fits.
    public var intValue: Int? { isInteger ? Int(literal) : nil }
}

/// A JSON object whose members stay in source order; duplicate keys are kept so that
/// canonical-byte checks can see them.
public struct JSONObject: Sendable, Hashable {
    /// One `key: value` member.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Makes a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in source order.
    public var members: [Member]

    /// Makes an object from members in order.
    public init(_ members: [Member] = []) { self.members = members }

    /// Makes an object from `(key, value)` pairs in order; a repeated key stays a second member.
    /// - Parameter pairs: the members' keys and values.
    public init(pairs: [(String, JSONValue)]) { self.members = pairs.map { Member(key: $0.0, value: $0.1) } }

    /// Makes an empty object with room for `capacity` members, for one built a member at a time.
    /// - Parameter capacity: the members it will hold.
    public init(capacity: Int) {
        members = []
        members.reserveCapacity(capacity)
    }

    /// Adds a member at the end, even when `key` is already there (unlike the subscript's set,
    /// which replaces the first): a duplicate key stays visible, as in parsed input.
    public mutating func append(_ key: String, _ value: JSONValue) { members.append(Member(key: key, value: value)) }

    /// The value of the first member named `key`, if any.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where JSONObject.sameKey(member.key, key) { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { JSONObject.sameKey($0.key, key) }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The keys in source order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// The first key that appears more than once, if any.
    public var firstDuplicateKey: String? {
        if members.count < 2 { return nil }
        if members.count <= 16 {
            // Small objects (nearly all wire objects): comparing pairs beats hashing every key.
            for later in 1..<members.count {
                for earlier in 0..<later where Self.sameKey(members[earlier].key, members[later].key) { return members[later].key }
            }
            return nil
        }
        var seen = Set<[UInt8]>()
        for member in members where !seen.insert(Array(member.key.utf8)).inserted { return member.key }
        return nil
    }

    /// True when two keys are the same bytes. JSON keys are byte strings: Swift's `==` would
    /// call canonically equivalent keys ("é" and "e\u{301}") equal.
    /// - Parameters:
    ///   - lhs: a key.
    ///   - rhs: another key.
    /// - Returns: whether their UTF-8 bytes are equal.
    @inline(__always)
    public static func sameKey(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs
        var right = rhs
        return left.withUTF8 { a in
            right.withUTF8 { b in
                guard a.count == b.count else { return false }
                guard let first = a.baseAddress, let second = b.baseAddress else { return true }
                return memcmp(first, second, a.count) == 0
            }
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Makes an object from a literal, keeping the literal's order.
    /// - Parameter elements: the literal's members, in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { Member(key: $0.0, value: $0.1) }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer number value.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    /// - Parameter elements: the literal's elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value, in literal order.
    /// - Parameter elements: the literal's members, in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    /// The null value.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// The object, when this value is one.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
    /// The array, when this value is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }
    /// The string, when this value is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
    /// The boolean, when this value is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }
    /// The number, when this value is one.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }
    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
    /// The JSON type name used in error messages ("object", "array", "string", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
    /// The member named `key` when this value is an object.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}
