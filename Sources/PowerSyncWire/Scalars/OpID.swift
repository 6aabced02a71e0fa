import JSON

/// An op id (`ProtocolOpId`): a base-10 string on the wire, 0 through 2^63−1, kept exact as an
/// `Int64` (the SDK core parses it into an i64). Checkpoint ids and checkpoint-request ids use
/// the same range.
public struct OpID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The id.
    public let value: Int64

    /// Wraps a non-negative value.
    /// - Parameter value: the id, at least 0.
    public init?(_ value: Int64) {
        guard value >= 0 else { return nil }
        self.value = value
    }

    /// Op id 0: the position of a bucket the client holds nothing of.
    public static let zero = OpID(exactly: 0)

    private init(exactly value: Int64) { self.value = value }

    /// The id as the wire writes it: base-10 digits.
    public var description: String { String(value) }

    /// Orders ids numerically.
    /// - Parameters:
    ///   - lhs: one id.
    ///   - rhs: another.
    /// - Returns: whether `lhs` is the smaller.
    public static func < (lhs: OpID, rhs: OpID) -> Bool { lhs.value < rhs.value }

    /// Reads a base-10 digit string: no sign, no leading zero (but "0"), at most 2^63−1.
    /// - Returns: the id, or nil when the text is not one.
    public static func parse(_ text: String) -> OpID? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        if digits.count > 1, digits.first == UInt8(ascii: "0") { return nil }
        return Int64(text).flatMap(OpID.init)
    }

    /// Reads a value that must be an op-id string.
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - pointer: where it sits.
    ///   - kind: the error kind for a bad value.
    /// - Returns: the id.
    /// - Throws: `PowerSync.ShapeError` when it is not a string of 0…2^63−1.
    public static func read(_ value: JSONValue, at pointer: JSONPointer, kind: PowerSync.ShapeError.Kind) throws(PowerSync.ShapeError)
        -> OpID
    {
        guard case .string(let text) = value else {
            throw PowerSync.ShapeError(kind, at: pointer, "an op id is a base-10 string, found \(value.typeName)")
        }
        guard let id = parse(text) else {
            throw PowerSync.ShapeError(kind, at: pointer, "\"\(text)\" is not an op id (base-10 digits, 0 through 9223372036854775807)")
        }
        return id
    }
}
