import KizunaWire

/// What a server says of its own numbering once seeded: where its stream stands before the
/// case and the seq each history change took. The runner binds the golden values of those
/// positions to these live ones, so a request that names a position the server never returned
/// (a fencing case's first checkpoint "4", a checkpoint inside the history) carries the
/// server's own value. A server that numbers exactly as the seed asks answers `asSeeded`.
public struct SeedReceipt: Sendable, Hashable {
    /// The last seq before the case: every seq the server stamps from now on is above it.
    public var base: SequenceNumber
    /// The seq each history change stamped, in the seed's order; nil for a reap, which stamps none.
    public var history: [SequenceNumber?]
    /// A wall-clock server's own time at the seed: no time it stamps later may be earlier. Nil
    /// when the server does not say (the runner then takes its own clock).
    public var seededAt: UTCTimestamp?
    /// True when the server said nothing of its numbering (its seed answered a bare 204) and the
    /// runner took it at the seed's word (`asSeeded`). On a server that does not declare dense
    /// numbering such a receipt is only a provisional guess: the runner learns the real positions
    /// from the answers (`Bindings.bind(seed:receipt:dense:)`).
    public var implied = false

    /// Makes a receipt.
    /// - Parameters:
    ///   - base: the last seq before the case.
    ///   - history: the seq of each history change, nil for a reap.
    ///   - seededAt: the server's own time at the seed, if it says.
    public init(base: SequenceNumber, history: [SequenceNumber?], seededAt: UTCTimestamp? = nil) {
        self.base = base
        self.history = history
        self.seededAt = seededAt
    }

    /// The receipt of a server that numbers as the seed asks: base `next_seq - 1`, and the history
    /// stamped densely from `next_seq` (a reap stamps nothing). This is what the runner assumes of
    /// a fixture endpoint whose seed answers 204 with no body.
    /// - Returns: the receipt.
    public static func asSeeded(_ seed: Seed) -> SeedReceipt {
        var next = seed.nextSeq
        var history: [SequenceNumber?] = []
        for change in seed.history {
            if case .reap = change {
                history.append(nil)
            } else {
                history.append(next)
                next = next.successor
            }
        }
        var receipt = SeedReceipt(base: seed.nextSeq.predecessor ?? .zero, history: history)
        receipt.implied = true
        return receipt
    }
}
