/// How close a live answer is to its golden (or recorded) one.
public enum ResponseTier: String, Sendable, Hashable, Comparable {
    /// Canonical bytes equal.
    case pass
    /// Equal once the golden answer's server-made values (seqs, cursor parts, `deleted_at`) are
    /// replaced by the live values bound to them, the bindings staying a bijection that keeps
    /// order: a correct server that numbers or times differently.
    case bound
    /// Different even then, or a server-made value that cannot be bound.
    case diverged

    private var rank: Int {
        switch self {
        case .pass: 0
        case .bound: 1
        case .diverged: 2
        }
    }

    /// Orders tiers from best (pass) to worst (diverged).
    /// - Parameters:
    ///   - lhs: one tier.
    ///   - rhs: another.
    /// - Returns: whether `lhs` is the better tier.
    public static func < (lhs: ResponseTier, rhs: ResponseTier) -> Bool { lhs.rank < rhs.rank }

    /// The tier a `--tier` option names: `pass`, `bound`, or `semantic` (the old name of bound).
    /// - Parameter name: the option's value.
    /// - Returns: the tier, or nil for another word.
    public static func named(_ name: String) -> ResponseTier? {
        switch name {
        case "pass": .pass
        case "bound", "semantic": .bound
        default: nil
        }
    }

    /// The keys whose values a server makes: the ones bindings follow.
    public static let serverMadeKeys: Set<String> = ["seq", "cursor", "winner_seq", "deleted_at"]
}
