import JSON

/// A bucket or op checksum: conceptually an unsigned 32-bit integer, added with wrap-around.
/// The wire may carry it as a u32, as the same bits read as a negative i32, or as a whole
/// float of either (the SDK core accepts all three).
public struct Checksum: Sendable, Hashable, CustomStringConvertible {
    /// The checksum as an unsigned 32-bit value.
    public let value: UInt32

    /// Wraps a value.
    /// - Parameter value: the u32.
    public init(_ value: UInt32) { self.value = value }

    /// The zero checksum (an empty bucket).
    public static let zero = Checksum(0)

    /// The wrapping sum.
    /// - Parameters:
    ///   - lhs: one checksum.
    ///   - rhs: another.
    /// - Returns: `lhs + rhs` modulo 2^32.
    public static func + (lhs: Checksum, rhs: Checksum) -> Checksum { Checksum(lhs.value &+ rhs.value) }

    /// The value in decimal, as the service writes it.
    public var description: String { String(value) }

    /// The checksum as a JSON number (its u32 value).
    public var json: JSONValue { .number(JSONNumber(literal: String(value))) }

    /// Reads a checksum from a JSON number: an integer in −2^31…2^32−1, or a float with no
    /// fractional part in that range.
    /// - Returns: the checksum.
    /// - Throws: `PowerSync.ShapeError` (.malformedLine) when it is not a 32-bit checksum.
    public static func read(_ value: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) -> Checksum {
        guard case .number(let number) = value else {
            throw PowerSync.ShapeError(.malformedLine, at: pointer, "a checksum is a number, found \(value.typeName)")
        }
        let whole: Int64
        if number.isInteger {
            guard let integer = Int64(number.literal) else { throw outOfRange(number, at: pointer) }
            whole = integer
        } else {
            guard let double = Double(number.literal), double.isFinite else { throw outOfRange(number, at: pointer) }
            guard double.rounded(.towardZero) == double else {
                throw PowerSync.ShapeError(.malformedLine, at: pointer, "a checksum is a whole number, found \(number.literal)")
            }
            guard abs(double) < 9.0e18 else { throw outOfRange(number, at: pointer) }
            whole = Int64(double)
        }
        if (0...Int64(UInt32.max)).contains(whole) { return Checksum(UInt32(whole)) }
        if (Int64(Int32.min)..<0).contains(whole) { return Checksum(UInt32(bitPattern: Int32(whole))) }
        throw outOfRange(number, at: pointer)
    }

    private static func outOfRange(_ number: JSONNumber, at pointer: JSONPointer) -> PowerSync.ShapeError {
        PowerSync.ShapeError(
            .malformedLine, at: pointer, "a checksum is a 32-bit value (-2147483648 through 4294967295), found \(number.literal)")
    }
}

extension Checksum {
    /// The bucket sum after one more op, as the SDK core counts it: PUT, REMOVE and MOVE add
    /// their checksum (wrapping u32), a CLEAR replaces the sum with its own.
    /// - Returns: the new sum.
    public func adding(_ op: OplogEntry) -> Checksum { op.op == .clear ? op.checksum : self + op.checksum }
}
