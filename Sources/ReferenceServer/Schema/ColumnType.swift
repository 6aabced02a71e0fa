import JSON
import KizunaWire

/// A column's SQL type, as fixtures/domain.json names it; decides which JSON values a write
/// may carry (a mismatch is a class-22 error, i.e. a CONSTRAINT verdict).
public enum ColumnType: String, Sendable, Hashable, CaseIterable {
    /// `uuid`: a textual uuid.
    case uuid
    /// `text`: any string.
    case text
    /// `integer`: a 32-bit integer.
    case integer
    /// `bigint`: a 64-bit integer (a JSON integer or a decimal string).
    case bigint
    /// `boolean`.
    case boolean
    /// `timestamptz`: an ISO-8601 timestamp string.
    case timestamptz
    /// `text[]`: an array of strings.
    case textArray = "text[]"

    /// True when `value` is acceptable for a column of this type (null always is).
    /// - Parameter value: the JSON value written.
    /// - Returns: whether it fits.
    public func accepts(_ value: JSONValue) -> Bool {
        if value.isNull { return true }
        switch self {
        case .uuid: return value.stringValue.map(WireGrammar.isUUID) ?? false
        case .text: return value.stringValue != nil
        case .timestamptz: return value.stringValue.map { $0.count >= 10 && $0.first?.isNumber == true } ?? false
        case .boolean: return value.boolValue != nil
        case .integer: return Self.integer(value).map { $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) } ?? false
        case .bigint: return Self.integer(value) != nil
        case .textArray: return value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        }
    }

    /// True for the numeric types an increment may target.
    public var isNumeric: Bool { self == .integer || self == .bigint }

    /// True for the array types arrayUnion and arrayRemove may target.
    public var isArray: Bool { self == .textArray }

    /// The integer a JSON value spells: an integer literal, or (for bigint) a decimal string.
    /// - Returns: the integer, or nil.
    static func integer(_ value: JSONValue) -> Int64? { Transform.integer(value) }
}
