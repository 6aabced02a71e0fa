import KizunaWire

/// What a server under test can steer, which some cases need: the server lane reports a step that
/// needs what the target lacks as not applicable (its rules still run), never as diverged and
/// never as passed. docs/server-contract.md §2 says how a server over HTTP declares them.
public struct TargetCapabilities: Sendable, Hashable, CustomStringConvertible {
    /// Where server-assigned times (a tombstone's `deleted_at`) come from.
    public enum Clock: String, Sendable, Hashable, CaseIterable {
        /// The fixture contract's step clock: `2026-01-01T00:00:<n>.000Z`, so times equal the golden ones.
        case logical
        /// The server's own wall clock: times are bound to the golden ones, checked for RFC 3339
        /// UTC, order, and not being earlier than the seed.
        case wall
    }

    /// When a write takes its seq.
    public enum SeqStamping: KebabNamed {
        /// At the write, so a transaction held open leaves a hole below later commits (the fencing cases).
        case atWrite
        /// At commit, so a held transaction never leaves a hole: the fencing cases' golden holes cannot occur.
        case atCommit
    }

    /// Whether every write takes the next seq.
    public enum Numbering: String, Sendable, Hashable, CaseIterable {
        /// Each write takes exactly the next seq after the seed's base, as the golden corpus
        /// numbers: a row's live seq is its golden seq moved by one constant, so a write applied
        /// twice (a seq the golden conversation does not have) is caught.
        case dense
        /// Seqs may skip values (a sequence cache, rolled-back draws): only order and bijection
        /// are checked.
        case gapped
    }

    /// Whether a write that changes no column stamps a seq (and is delivered again).
    public enum NoOpWrites: String, Sendable, Hashable, CaseIterable {
        /// Every applied write takes a seq, as upstream's reference oracle numbers them.
        case stamped
        /// A write that changes nothing takes none, as upstream's SQL pack's capture trigger skips it.
        case unstamped
    }

    /// The clock.
    public var clock: Clock
    /// The seq stamping.
    public var seqs: SeqStamping
    /// The numbering.
    public var numbering: Numbering
    /// How the server numbers a write that changes nothing; the protocol leaves it open, so
    /// `accord explore` makes its reference do as the target declares (issue 39).
    public var noOpWrites: NoOpWrites

    /// Makes capabilities; numbering is `gapped` unless the server declares it dense.
    public init(clock: Clock, seqs: SeqStamping, numbering: Numbering = .gapped, noOpWrites: NoOpWrites = .stamped) {
        self.clock = clock
        self.seqs = seqs
        self.numbering = numbering
        self.noOpWrites = noOpWrites
    }

    /// The reference server's: a logical clock, seqs stamped at write, dense numbering.
    public static let reference = TargetCapabilities(clock: .logical, seqs: .atWrite, numbering: .dense)

    /// What a server that declares nothing is assumed to have (its fixture endpoint answers the
    /// capabilities call 404, 405 or 501): a logical clock and seqs stamped at write, as the
    /// reference server, but numbering `gapped`, since dense numbering is a promise only a server
    /// can make (a Postgres sequence skips values after a rollback, a shared database's sequence
    /// was never reset), so such a server is judged by order and bijection only.
    public static let undeclared = TargetCapabilities(clock: .logical, seqs: .atWrite, numbering: .gapped)

    /// "clock logical, seqs at-write, numbering dense".
    public var description: String {
        "clock \(clock.rawValue), seqs \(seqs.rawValue), numbering \(numbering.rawValue)"
            + (noOpWrites == .unstamped ? ", no-op writes unstamped" : "")
    }
}
