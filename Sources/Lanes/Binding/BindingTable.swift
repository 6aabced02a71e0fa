import JSON

/// Where a binding was learned: a step's or exchange's response (with the pointer of the live
/// value), the seed, or the protocol itself (the bootstrap cursor "0").
public struct BindingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// "step 3 pull", "exchange 4 pull (client …0001)", "the seed", "the bootstrap cursor".
    public var label: String
    /// Where in that response the live value sits, when it came from a response.
    public var pointer: JSONPointer?

    /// Makes an origin.
    /// - Parameters:
    ///   - label: the step, exchange or source.
    ///   - pointer: the value's pointer in the response, if any.
    public init(_ label: String, at pointer: JSONPointer? = nil) {
        self.label = label
        self.pointer = pointer
    }

    /// "step 3 pull at /cursor".
    public var description: String { pointer.map { "\(label) at \($0.readable)" } ?? label }

    /// The protocol's own fixed point: the bootstrap cursor "0" means the same on every server.
    static let bootstrap = BindingOrigin("the bootstrap cursor")
}

/// One kind's golden → live map, kept a bijection that preserves order: a golden value is
/// bound to one live value, a live value answers one golden value, and golden a < b implies
/// live(a) < live(b). Sorted by golden value, so the order check looks at two neighbours.
struct BindingTable<Value: Comparable & Hashable & Sendable & CustomStringConvertible>: Sendable {
    struct Entry: Sendable {
        var golden: Value
        var live: Value
        var origin: BindingOrigin
    }

    /// Why a pair could not be bound.
    enum Conflict: Sendable {
        /// The golden value is already bound to another live value.
        case goldenBoundElsewhere(Entry)
        /// The live value already answers another golden value.
        case liveAnswersAnother(Entry)
        /// Binding the pair would invert the order against this neighbour.
        case orderInverted(Entry)
    }

    enum Outcome: Sendable {
        case known
        case learned
        case refused(Conflict)
    }

    private(set) var entries: [Entry] = []
    private var byLive: [Value: Entry] = [:]

    /// Binds `golden` to `live` unless that breaks the bijection or the order.
    mutating func bind(_ golden: Value, _ live: Value, origin: BindingOrigin) -> Outcome {
        let index = insertionIndex(golden)
        if index < entries.count, entries[index].golden == golden {
            return entries[index].live == live ? .known : .refused(.goldenBoundElsewhere(entries[index]))
        }
        if let other = byLive[live] { return .refused(.liveAnswersAnother(other)) }
        if index > 0, !(entries[index - 1].live < live) { return .refused(.orderInverted(entries[index - 1])) }
        if index < entries.count, !(live < entries[index].live) { return .refused(.orderInverted(entries[index])) }
        let entry = Entry(golden: golden, live: live, origin: origin)
        entries.insert(entry, at: index)
        byLive[live] = entry
        return .learned
    }

    /// Whether a live value already answers some golden value.
    func answers(_ live: Value) -> Bool { byLive[live] != nil }

    /// The binding of a golden value, if any.
    func entry(for golden: Value) -> Entry? {
        let index = insertionIndex(golden)
        return index < entries.count && entries[index].golden == golden ? entries[index] : nil
    }

    private func insertionIndex(_ golden: Value) -> Int {
        entries.partitionPoint { $0.golden < golden }
    }
}
