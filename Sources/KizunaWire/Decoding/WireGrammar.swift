/// The string grammars of the wire schemas that a JSON type alone does not capture: uuids,
/// table and column names, row keys and origin clocks. Checked on bytes, without regexes, so
/// that decoding stays fast.
public enum WireGrammar {
    /// An RFC 4122 textual uuid: 8-4-4-4-12 hex digits (format uuid).
    /// - Returns: whether it is a uuid.
    public static func isUUID(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    /// A table or column name: `^[a-z][a-z0-9_]*$` (common.schema.json#/$defs/table_name).
    /// - Returns: whether it is a name.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= 0x61 && first <= 0x7A else { return false }
        return text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") }
    }

    /// An origin clock: `<YYYY-MM-DDTHH:MM:SS.mmmZ>|<logical>|<node>` (mutation hlc pattern).
    /// - Returns: whether it is an origin clock.
    public static func isHLC(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let shape = Array("dddd-dd-ddTdd:dd:dd.dddZ|".utf8)
        guard bytes.count > shape.count + 2 else { return false }
        for (index, expected) in shape.enumerated() {
            let byte = bytes[index]
            if expected == UInt8(ascii: "d") {
                if byte < 0x30 || byte > 0x39 { return false }
            } else if byte != expected {
                return false
            }
        }
        var index = shape.count
        let logicalStart = index
        while index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        guard index > logicalStart, index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return false }
        return index + 1 < bytes.count
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }
}

extension ObjectReader {
    /// A required uuid member.
    /// - Returns: the uuid text.
    /// - Throws: `WireError` when absent, not a string, or not a uuid.
    public mutating func uuid(_ key: String) throws(WireError) -> String {
        let text = try string(key)
        guard WireGrammar.isUUID(text) else { throw WireError(malformed, at: pointer.appending(key), "\"\(text)\" is not a uuid") }
        return text
    }

    /// An optional uuid member; `null` reads as nil only when `allowNull`.
    /// - Parameters:
    ///   - key: the key.
    ///   - allowNull: whether `null` reads as nil.
    /// - Returns: the uuid text or nil.
    /// - Throws: `WireError` when present and not a uuid.
    public mutating func optionalUUID(_ key: String, allowNull: Bool = false) throws(WireError) -> String? {
        guard let text = try optionalString(key, allowNull: allowNull) else { return nil }
        guard WireGrammar.isUUID(text) else { throw WireError(malformed, at: pointer.appending(key), "\"\(text)\" is not a uuid") }
        return text
    }

    /// A required table (or column) name member.
    /// - Returns: the name.
    /// - Throws: `WireError` when absent, not a string, or not `^[a-z][a-z0-9_]*$`.
    public mutating func name(_ key: String) throws(WireError) -> String {
        let text = try string(key)
        guard WireGrammar.isName(text) else {
            throw WireError(malformed, at: pointer.appending(key), "\"\(text)\" is not a table or column name ([a-z][a-z0-9_]*)")
        }
        return text
    }

    /// A required row-key member: a non-empty string (D-row-key).
    /// - Returns: the row key text.
    /// - Throws: `WireError` when absent, not a string, or empty.
    public mutating func rowKey(_ key: String) throws(WireError) -> String {
        let text = try string(key)
        if text.isEmpty { throw WireError(malformed, at: pointer.appending(key), "a row key is never empty") }
        return text
    }
}
