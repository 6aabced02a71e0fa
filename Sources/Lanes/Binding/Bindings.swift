import JSON
import KizunaWire
import ServerContract

/// The server-made values of one conversation (a corpus case, or a whole recording), golden →
/// live: every seq (`seq`, `winner_seq`, each part of a cursor: start, high-water, holes) in
/// one map, every `deleted_at` in another. Each map stays a bijection that keeps order, so a
/// server that numbers differently (another first seq, gaps, other times) is followed exactly,
/// while a cursor that runs ahead of its rows, two checkpoints answered with one token, or a
/// seq out of order is caught at the step that answered it. Requests are sent with the live
/// values (`translate`): a cursor the server answered goes back exactly as answered, any other
/// value through the maps. A golden response equals the live one once translated: tier bound.
public struct Bindings: Sendable {
    /// The two kinds of server-made value.
    public enum Kind: String, Sendable, Hashable {
        /// Positions in the global sequence: seqs and cursor parts.
        case seq
        /// Server-assigned times.
        case time

        var noun: String { self == .seq ? "seq" : "deleted_at" }
    }

    /// One binding, as learned.
    public struct Binding: Sendable, Hashable, CustomStringConvertible {
        /// Its kind.
        public var kind: Kind
        /// The golden value.
        public var golden: String
        /// The live value.
        public var live: String

        /// "seq 4→3".
        public var description: String { "\(kind.noun) \(golden)→\(live)" }
    }

    /// What one response taught.
    public struct Learning: Sendable, Hashable {
        /// New bindings, in the order they were learned.
        public var learned: [Binding] = []
        /// Pairs that could not be bound.
        public var violations: [BindingViolation] = []
    }

    /// How live times must answer golden ones.
    public enum TimeMatching: Sendable, Hashable {
        /// A bijection that keeps order, as for seqs: corpus cases, whose golden times come from
        /// the same logical clock a server under test is driven by.
        case bijection
        /// Order alone (`TimeOrder`): recordings, whose service stamped its own clock at its own grain.
        case order
    }

    var seqs = BindingTable<SequenceNumber>()
    var times = BindingTable<UTCTimestamp>()
    var timeOrder = TimeOrder()
    /// How live times must answer golden ones.
    public let timeMatching: TimeMatching
    /// Every cursor the server answered, golden token → the live token answered in its place (the
    /// latest, as a client keeps the latest): a request sends the token the server gave, as a
    /// client following the conversation would, even where its parts could not be bound.
    var answeredCursors: [String: (live: String, origin: BindingOrigin)] = [:]
    /// Seed positions of a server that did not say where its numbering stands (an implied
    /// receipt, numbering not declared dense), golden → the seed's own value: used to send a
    /// position no answer has bound yet, never checked against what the answers teach.
    var provisional: [SequenceNumber: SequenceNumber] = [:]
    /// The earliest live time a wall-clock server may stamp: the moment it was seeded.
    public var notBefore: UTCTimestamp?
    /// For a server that numbers densely, the golden and live bases of the seed: a row's,
    /// tombstone's or history change's live seq must be its golden seq moved by `live - golden`.
    /// Nil where the numbering may have gaps (and for recordings, whose recorded base is unknown).
    public private(set) var denseBase: (golden: SequenceNumber, live: SequenceNumber)?

    /// A map that knows only the protocol's fixed point: cursor "0" is "0" on every server.
    /// - Parameter times: how live times must answer golden ones (`.order` for recordings).
    public init(times: TimeMatching = .bijection) {
        self.timeMatching = times
        _ = seqs.bind(.zero, .zero, origin: .bootstrap)
    }

    /// Binds the positions a seed names to where the server says its numbering stands: the
    /// golden base (`next_seq - 1`, when above zero) and the golden seq of each history change
    /// (stamped densely from `next_seq`, a reap stamping none).
    /// A receipt the server only implied (a bare 204) on a server that does not declare dense
    /// numbering binds nothing: its positions are kept as `provisional` values for requests.
    /// - Parameters:
    ///   - seed: the seed as sent.
    ///   - receipt: the server's answer.
    ///   - dense: whether the server declares dense numbering (every write the next seq).
    /// - Returns: what was learned and what could not be bound (a receipt that breaks the order).
    public mutating func bind(seed: Seed, receipt: SeedReceipt, dense: Bool = false) -> Learning {
        var learning = Learning()
        let golden = SeedReceipt.asSeeded(seed)
        let origin = BindingOrigin("the seed")
        if receipt.implied && !dense {
            // The server said nothing of where its numbering stands: a request that names a seed
            // position carries the seed's own value until an answer shows the server's.
            if golden.base != .zero { provisional[golden.base] = receipt.base }
            for case (let goldenSeq?, let liveSeq?) in zip(golden.history, receipt.history) { provisional[goldenSeq] = liveSeq }
            return learning
        }
        if dense { denseBase = (golden.base, receipt.base) }
        if golden.base != .zero { bind(seq: golden.base, to: receipt.base, origin: origin, into: &learning) }
        for (index, pair) in zip(golden.history, receipt.history).enumerated() {
            guard let goldenSeq = pair.0, let liveSeq = pair.1 else { continue }
            let at = BindingOrigin("the seed", at: JSONPointer(tokens: ["history", String(index)]))
            bind(position: goldenSeq, to: liveSeq, origin: at, into: &learning)
        }
        return learning
    }

    mutating func bind(seq golden: SequenceNumber, to live: SequenceNumber, origin: BindingOrigin, into learning: inout Learning) {
        Self.note(seqs.bind(golden, live, origin: origin), .seq, golden, live, origin, &learning)
    }

    /// Binds a position in the sequence (a row's, tombstone's or conflict winner's seq, a history
    /// change's, a cursor part): on a densely numbered server it must lie as far above the live
    /// base as the golden one lies above the golden base. The bootstrap position 0 is exempt, and
    /// a pair that meets an earlier binding is judged by the bijection, whose message names it.
    mutating func bind(position golden: SequenceNumber, to live: SequenceNumber, origin: BindingOrigin, into learning: inout Learning) {
        if golden != .zero, seqs.entry(for: golden) == nil, !seqs.answers(live), let (goldenBase, liveBase) = denseBase,
            let g = Int64(golden.text), let gb = Int64(goldenBase.text),
            let l = Int64(live.text), let lb = Int64(liveBase.text), l - lb != g - gb
        {
            learning.violations.append(
                BindingViolation(
                    pointer: origin.pointer ?? .root, golden: golden.text, live: live.text,
                    message:
                        "golden seq \"\(golden)\" lies \(g - gb) after the seed's base \"\(goldenBase)\", but live \"\(live)\" at \(origin) lies \(l - lb) after the live base \"\(liveBase)\": \(l - lb > g - gb ? "this server's numbering runs ahead of the golden one (a write applied again, a seq spent on nothing, or a cursor ahead of its data)" : "this server's numbering falls behind the golden one (a write lost, or a cursor below a seq it stamped)"); a server whose numbering has gaps declares numbering gapped"
                ))
            return
        }
        bind(seq: golden, to: live, origin: origin, into: &learning)
    }

    mutating func bind(time golden: UTCTimestamp, to live: UTCTimestamp, origin: BindingOrigin, into learning: inout Learning) {
        switch timeMatching {
        case .bijection: Self.note(times.bind(golden, live, origin: origin), .time, golden, live, origin, &learning)
        case .order: Self.note(timeOrder.bind(golden, live, origin: origin), .time, golden, live, origin, &learning)
        }
    }

    private static func note<Value>(
        _ outcome: BindingTable<Value>.Outcome, _ kind: Kind, _ golden: Value, _ live: Value, _ origin: BindingOrigin,
        _ learning: inout Learning
    ) {
        switch outcome {
        case .known: return
        case .learned: learning.learned.append(Binding(kind: kind, golden: golden.description, live: live.description))
        case .refused(let conflict):
            learning.violations.append(.conflict(conflict, kind: kind, golden: golden, live: live, origin: origin))
        }
    }
}
