/// An origin hybrid logical clock `<iso>|<logical>|<node>`, ordered by (physical, logical, node).
struct OriginClock: Comparable, Sendable {
    var physical: String
    var logical: Int
    var node: String

    /// Parses the wire text; nil when it is not `<iso>|<logical>|<node>`.
    init?(_ text: String) {
        let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let logical = Int(parts[1]) else { return nil }
        physical = String(parts[0])
        self.logical = logical
        node = String(parts[2])
    }

    init(physical: String, logical: Int, node: String) {
        self.physical = physical
        self.logical = logical
        self.node = node
    }

    /// The clock with its physical time clamped to the server's `now` (a device clock running
    /// ahead can never win forever).
    func clamped(to now: String) -> OriginClock {
        physical > now ? OriginClock(physical: now, logical: logical, node: node) : self
    }

    /// The wire text.
    var text: String { "\(physical)|\(logical)|\(node)" }

    static func < (lhs: OriginClock, rhs: OriginClock) -> Bool {
        (lhs.physical, lhs.logical, lhs.node) < (rhs.physical, rhs.logical, rhs.node)
    }
}
