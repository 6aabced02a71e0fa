/// Reads the members of one JSON object strictly: each key is taken at most once and any key
/// left unread at `finish()` is an unknown key (schemas say additionalProperties: false); its
/// shape problems are `PointedError`s of the wire's own kind (`malformed`), so each protocol's
/// wire reads objects through this one reader.
public struct StrictObjectReader<Kind: PointedErrorKind>: Sendable {
    /// The object being read.
    public let object: JSONObject
    /// Where the object sits in its message.
    public let pointer: JSONPointer
    /// The error kind reported for shape problems.
    public let malformed: Kind
    private var read: [Bool]

    /// Starts reading `value`, which must be an object.
    /// - Parameters:
    ///   - value: the value.
    ///   - pointer: where it sits.
    ///   - malformed: the error kind for shape problems.
    /// - Throws: `PointedError` when the value is not an object or repeats a key.
    public init(_ value: JSONValue, at pointer: JSONPointer, malformed: Kind) throws(PointedError<Kind>) {
        guard case .object(let object) = value else {
            throw PointedError(malformed, at: pointer, "expected an object, found \(value.typeName)")
        }
        if let duplicate = object.firstDuplicateKey {
            throw PointedError(malformed, at: pointer.appending(duplicate), "duplicate key \"\(duplicate)\"")
        }
        self.object = object
        self.pointer = pointer
        self.malformed = malformed
        self.read = Array(repeating: false, count: object.count)
    }

    /// True when the object has `key`.
    /// - Returns: whether it is present.
    public func has(_ key: String) -> Bool { object[key] != nil }

    /// The value of an optional key, marking it read.
    /// - Returns: the value, or nil when absent.
    public mutating func optional(_ key: String) -> JSONValue? {
        for index in object.members.indices where JSONObject.sameKey(object.members[index].key, key) {
            read[index] = true
            return object.members[index].value
        }
        return nil
    }

    /// The value of a required key, marking it read.
    /// - Returns: the value.
    /// - Throws: `PointedError` when the key is absent.
    public mutating func required(_ key: String) throws(PointedError<Kind>) -> JSONValue {
        guard let value = optional(key) else {
            // A key one or two edits away, not read yet, is the likelier mistake: name it, at its pointer.
            if let index = object.members.indices.first(where: { !read[$0] && Self.isNear(object.members[$0].key, key) }) {
                let found = object.members[index].key
                throw PointedError(
                    malformed, at: pointer.appending(found), "unknown key \"\(found)\": did you mean \"\(key)\", which is required?")
            }
            throw PointedError(malformed, at: pointer, "missing required key \"\(key)\"")
        }
        return value
    }

    /// Whether `found` looks like a misspelling of `key`: an edit or two apart (a letter dropped,
    /// added, changed, or two swapped), one for a key under five letters.
    static func isNear(_ found: String, _ key: String) -> Bool {
        let x = Array(found.utf8)
        let y = Array(key.utf8)
        let limit = y.count < 5 ? 1 : 2
        if x == y || x.isEmpty || y.isEmpty || abs(x.count - y.count) > limit { return false }
        // Optimal string alignment distance over the two short keys.
        var beforeLast = [Int](repeating: 0, count: y.count + 1)
        var last = Array(0...y.count)
        for i in 1...x.count {
            var row = [i] + [Int](repeating: 0, count: y.count)
            for j in 1...y.count {
                row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { row[j] = min(row[j], beforeLast[j - 2] + 1) }
            }
            beforeLast = last
            last = row
        }
        return last[y.count] <= limit
    }

    /// A required string member.
    /// - Returns: the string.
    /// - Throws: `PointedError` when absent or not a string.
    public mutating func string(_ key: String) throws(PointedError<Kind>) -> String {
        let value = try required(key)
        guard case .string(let string) = value else { throw typeError(key, "a string", value) }
        return string
    }

    /// An optional string member; `null` is refused unless `allowNull`.
    /// - Parameters:
    ///   - key: the key.
    ///   - allowNull: whether `null` reads as nil.
    /// - Returns: the string or nil.
    /// - Throws: `PointedError` when present with another type.
    public mutating func optionalString(_ key: String, allowNull: Bool = false) throws(PointedError<Kind>) -> String? {
        guard let value = optional(key) else { return nil }
        if allowNull, value.isNull { return nil }
        guard case .string(let string) = value else { throw typeError(key, "a string", value) }
        return string
    }

    /// A required boolean member.
    /// - Returns: the boolean.
    /// - Throws: `PointedError` when absent or not a boolean.
    public mutating func bool(_ key: String) throws(PointedError<Kind>) -> Bool {
        let value = try required(key)
        guard case .bool(let bool) = value else { throw typeError(key, "a boolean", value) }
        return bool
    }

    /// A required integer member (no fraction or exponent, fits `Int`).
    /// - Returns: the integer.
    /// - Throws: `PointedError` when absent or not an integer.
    public mutating func integer(_ key: String) throws(PointedError<Kind>) -> Int {
        let value = try required(key)
        guard case .number(let number) = value, let integer = number.intValue else { throw typeError(key, "an integer", value) }
        return integer
    }

    /// An optional integer member.
    /// - Returns: the integer or nil.
    /// - Throws: `PointedError` when present and not an integer.
    public mutating func optionalInteger(_ key: String) throws(PointedError<Kind>) -> Int? {
        guard let value = optional(key) else { return nil }
        guard case .number(let number) = value, let integer = number.intValue else { throw typeError(key, "an integer", value) }
        return integer
    }

    /// A required array member.
    /// - Returns: the elements.
    /// - Throws: `PointedError` when absent or not an array.
    public mutating func array(_ key: String) throws(PointedError<Kind>) -> [JSONValue] {
        let value = try required(key)
        guard case .array(let array) = value else { throw typeError(key, "an array", value) }
        return array
    }

    /// The error for a member of the wrong type.
    /// - Parameters:
    ///   - key: the key.
    ///   - expected: what was expected, e.g. "a string".
    ///   - value: what was found.
    /// - Returns: the error.
    public func typeError(_ key: String, _ expected: String, _ value: JSONValue) -> PointedError<Kind> {
        PointedError(malformed, at: pointer.appending(key), "expected \(expected), found \(value.typeName)")
    }

    /// Ends reading: any key not read is unknown.
    /// - Throws: `PointedError` naming the first unknown key.
    public func finish() throws(PointedError<Kind>) {
        for (index, member) in object.members.enumerated() where !read[index] {
            throw PointedError(malformed, at: pointer.appending(member.key), "unknown key \"\(member.key)\"")
        }
    }
}
