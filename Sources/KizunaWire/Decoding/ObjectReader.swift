import JSON

/// KizunaSync's object reader: the strict reader with `WireError` kinds.
public typealias ObjectReader = StrictObjectReader<WireErrorKind>

extension StrictObjectReader where Kind == WireErrorKind {
    /// An array of strings (a transcript's `cites` and `notes`, a manifest entry's).
    public static func strings(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> [String] {
        guard case .array(let elements) = value else {
            throw WireError(.json, at: pointer, "expected an array of strings, found \(value.typeName)")
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw WireError(.json, at: pointer.appending(index), "expected a string, found \(element.typeName)")
            }
            strings.append(text)
        }
        return strings
    }

    /// A required object member whose values are column values (scalars or arrays of scalars).
    /// - Returns: the object.
    /// - Throws: `WireError` when absent, not an object, or holding a non-column value.
    public mutating func columns(_ key: String) throws(WireError) -> JSONObject {
        let value = try required(key)
        return try ColumnValues.read(value, at: pointer.appending(key), malformed: malformed)
    }

    /// An optional column-values member; `null` reads as nil only when `allowNull`.
    /// - Parameters:
    ///   - key: the key.
    ///   - allowNull: whether `null` reads as nil.
    /// - Returns: the object or nil.
    /// - Throws: `WireError` when present with another shape.
    public mutating func optionalColumns(_ key: String, allowNull: Bool = false) throws(WireError) -> JSONObject? {
        guard let value = optional(key) else { return nil }
        if allowNull, value.isNull { return nil }
        return try ColumnValues.read(value, at: pointer.appending(key), malformed: malformed)
    }
}

/// Column values (`common.schema.json#/$defs/column_values`): an object of strings, integers,
/// booleans, nulls, or arrays of non-null scalars.
public enum ColumnValues {
    /// Reads a column-values object.
    /// - Parameters:
    ///   - value: the value.
    ///   - pointer: where it sits.
    ///   - malformed: the error kind for shape problems.
    /// - Returns: the object.
    /// - Throws: `WireError` when it is not a column-values object.
    public static func read(_ value: JSONValue, at pointer: JSONPointer, malformed: WireError.Kind) throws(WireError) -> JSONObject {
        guard case .object(let object) = value else {
            throw WireError(malformed, at: pointer, "expected an object of column values, found \(value.typeName)")
        }
        if let duplicate = object.firstDuplicateKey {
            throw WireError(malformed, at: pointer.appending(duplicate), "duplicate column \"\(duplicate)\"")
        }
        for member in object.members {
            switch member.value {
            case .object:
                throw WireError(
                    malformed, at: pointer.appending(member.key), "a column value is a scalar or an array of scalars, found object")
            case .number(let number) where !number.isInteger:
                throw WireError(malformed, at: pointer.appending(member.key), "column numbers are integers, found \(number.literal)")
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    switch element {
                    case .string, .bool: continue
                    case .number(let number) where number.isInteger: continue
                    default:
                        throw WireError(
                            malformed, at: pointer.appending(member.key).appending(index),
                            "array column items are strings, integers or booleans, found \(element.typeName)")
                    }
                }
            default: continue
            }
        }
        return object
    }
}
