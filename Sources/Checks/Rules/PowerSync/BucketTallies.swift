import PowerSyncWire

/// What a trace knows of each bucket's data, as the SDK core keeps it: the wrapping sum of the
/// ops received (nil: unknown) and the position reached. Kept across the streams of a trace, so
/// a reconnect that asks from where the last stream left a bucket keeps its sum.
struct BucketTallies: Sendable {
    private struct Tally: Sendable {
        var sum: Checksum?
        var position: OpID
    }

    private var byName: [String: Tally] = [:]
    /// The sum a bucket the trace has not seen starts from: zero, or unknown after a request that did not decode.
    private var unseen: Checksum? = .zero

    private func tally(_ name: String) -> Tally { byName[name] ?? Tally(sum: unseen, position: .zero) }

    /// The sum of a bucket's ops, nil when unknown.
    func sum(_ name: String) -> Checksum? { tally(name).sum }

    /// A new stream: a bucket keeps its sum only when the client asks from where the trace left it.
    mutating func open(_ request: SyncStreamRequest?) {
        guard let request else {
            byName = [:]
            unseen = nil
            return
        }
        var next: [String: Tally] = [:]
        for position in request.buckets where position.after != .zero {
            let carried = byName[position.name].flatMap { $0.position == position.after ? $0.sum : nil }
            next[position.name] = Tally(sum: carried, position: position.after)
        }
        byName = next
        unseen = .zero
    }

    /// Adds a data line's ops: a CLEAR replaces the sum, every other op adds to it.
    mutating func add(_ data: BucketData) {
        var tally = tally(data.bucket)
        for op in data.ops { tally.sum = op.op == .clear ? op.checksum : tally.sum.map { $0.adding(op) } }
        tally.position = data.nextAfter
        byName[data.bucket] = tally
    }

    /// A bucket left the checkpoint: the client drops its data, and it starts again from nothing.
    mutating func forget(_ name: String) { byName[name] = Tally(sum: .zero, position: .zero) }

    /// A bucket failed its checksum: the client discards its data, so its sum is unknown until it syncs again.
    mutating func discard(_ name: String) {
        var tally = tally(name)
        tally.sum = nil
        byName[name] = tally
    }
}
