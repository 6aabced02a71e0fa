/// A decimal sequence number as the protocol sends it: a string of digits with no leading
/// zero, of any length, compared without ever converting to a binary number.
public struct SequenceNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical decimal text.
    public let text: String

    /// The bootstrap value "0".
    public static let zero = SequenceNumber(unchecked: "0")

    /// Parses canonical decimal text (`0` or `[1-9][0-9]*`).
    public init?(_ text: some StringProtocol) {
        guard Self.isCanonical(text.utf8) else { return nil }
        self.text = String(text)
    }

    init(unchecked text: String) { self.text = text }

    /// Makes a sequence number from a non-negative integer.
    public init(_ value: UInt64) { self.text = String(value) }

    /// True when the bytes are canonical decimal text.
    /// - Parameter utf8: the bytes.
    /// - Returns: whether they form `0` or `[1-9][0-9]*`.
    public static func isCanonical(_ utf8: some Collection<UInt8>) -> Bool {
        guard let first = utf8.first else { return false }
        if first == UInt8(ascii: "0") { return utf8.count == 1 }
        return utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The text.
    public var description: String { text }

    /// Orders by numeric value: shorter text is smaller, then byte order.
    /// - Returns: whether `lhs` orders before `rhs`.
    public static func < (lhs: SequenceNumber, rhs: SequenceNumber) -> Bool {
        let left = lhs.text.utf8.count
        let right = rhs.text.utf8.count
        if left != right { return left < right }
        return lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    /// The next number (`self + 1`), computed on the digits.
    public var successor: SequenceNumber {
        var digits = Array(text.utf8)
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] == UInt8(ascii: "9") {
                digits[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                digits[index] += 1
                return SequenceNumber(unchecked: String(decoding: digits, as: UTF8.self))
            }
        }
        return SequenceNumber(unchecked: "1" + String(decoding: digits, as: UTF8.self))
    }

    /// The previous number (`self - 1`), computed on the digits; nil for zero.
    public var predecessor: SequenceNumber? {
        guard self != .zero else { return nil }
        var digits = Array(text.utf8)
        var index = digits.count - 1
        while digits[index] == UInt8(ascii: "0") {
            digits[index] = UInt8(ascii: "9")
            index -= 1
        }
        digits[index] -= 1
        let trimmed = digits.drop { $0 == UInt8(ascii: "0") }
        return SequenceNumber(unchecked: trimmed.isEmpty ? "0" : String(decoding: trimmed, as: UTF8.self))
    }
}
