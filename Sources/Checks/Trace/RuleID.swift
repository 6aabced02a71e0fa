/// A rule id: "I-5" for an upstream invariant, "AC-…" for Accord's own rules.
public struct RuleID: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id text.
    public let rawValue: String

    /// Makes an id.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Makes an id from a literal.
    /// - Parameter value: the id text.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The id text.
    public var description: String { rawValue }

    /// Orders ids as people read them: upstream invariants by number, then Accord's rules.
    /// - Returns: whether `lhs` orders before `rhs`.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.sortKey < rhs.sortKey }

    private var sortKey: (Int, Int, String) {
        if rawValue.hasPrefix("I-") {
            let digits = rawValue.dropFirst(2).prefix(while: \.isNumber)
            return (0, Int(digits) ?? 0, rawValue)
        }
        return (1, 0, rawValue)
    }
}
