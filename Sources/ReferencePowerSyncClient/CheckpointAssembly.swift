import PowerSyncWire

/// A bucket as the client holds it: the position its data reached and the wrapping sum of its ops.
struct BucketState: Sendable, Hashable {
    var position: OpID
    var sum: Checksum

    static let empty = BucketState(position: .zero, sum: .zero)
}

/// A checkpoint whose data is complete and whose checksums matched: what applying it changes.
struct CompletedCheckpoint: Sendable {
    /// The checkpoint's `last_op_id`.
    var lastOpID: OpID
    /// The write checkpoint (checkpoint-request id) it acknowledges.
    var writeCheckpoint: OpID?
    /// Every bucket of the checkpoint, as it stands once applied.
    var buckets: [String: BucketState]
    /// The ops received for each bucket since the last applied checkpoint, in order.
    var ops: [String: [OplogEntry]]
    /// Buckets whose ops start from nothing: their rows are replaced, not updated.
    var restarted: Set<String>
    /// Buckets held before and no longer in the checkpoint: their rows go.
    var removed: Set<String>
    /// For a partial completion, the priority whose buckets (at it or higher, numerically at
    /// or below) it covers; nil for a whole checkpoint. A partial one moves only those buckets:
    /// not the last checkpoint, the write checkpoint nor the requests.
    var priority: Int? = nil
}

/// The sync stream as a state machine, no I/O: lines in, and at a `checkpoint_complete` either
/// a checkpoint ready to apply or the buckets whose checksum did not match. It keeps the ops
/// received since the last applied checkpoint, so a checkpoint held back (uploads pending, write
/// checkpoint not reached) can still be applied by a later one of the same stream.
struct CheckpointAssembly: Sendable {
    /// What a line asks of the client.
    enum Action: Sendable {
        /// Nothing to do yet.
        case none
        /// A checkpoint announced: its write checkpoint.
        case announced(writeCheckpoint: OpID?)
        /// A priority's buckets are complete and add up: the buckets at that priority or
        /// higher, ready to apply as one unit (`priority` set); the write checkpoint is the
        /// announced one, which a partial completion does not acknowledge.
        case partiallyComplete(CompletedCheckpoint, writeCheckpoint: OpID?)
        /// A whole checkpoint arrived and adds up.
        case complete(CompletedCheckpoint)
        /// These buckets did not add up; their data is discarded.
        case mismatch([String])
    }

    private enum Phase: Sendable {
        case awaitingCheckpoint
        case checkpoint(targets: [String: BucketChecksum], lastOpID: OpID, writeCheckpoint: OpID?)
    }

    private var phase = Phase.awaitingCheckpoint
    private var held: [String: BucketState]
    private var running: [String: BucketState]
    private var pending: [String: [OplogEntry]] = [:]
    private let verifiesChecksums: Bool

    /// Starts a stream from the buckets the client holds.
    /// - Parameters:
    ///   - held: the applied buckets.
    ///   - verifiesChecksums: false only for the seeded fault that applies a mismatch anyway.
    init(held: [String: BucketState], verifiesChecksums: Bool = true) {
        self.held = held
        self.running = held
        self.verifiesChecksums = verifiesChecksums
    }

    /// Takes one line.
    /// - Parameter line: the decoded line.
    /// - Returns: what the client must do.
    mutating func receive(_ line: SyncLine) -> Action {
        switch line {
        case .checkpoint(let checkpoint):
            let targets = Dictionary(checkpoint.buckets.map { ($0.bucket, $0) }, uniquingKeysWith: { $1 })
            phase = .checkpoint(targets: targets, lastOpID: checkpoint.lastOpID, writeCheckpoint: checkpoint.writeCheckpoint)
            return .announced(writeCheckpoint: checkpoint.writeCheckpoint)
        case .checkpointDiff(let diff):
            guard case .checkpoint(var targets, _, _) = phase else { return .none }
            for name in diff.removedBuckets { targets[name] = nil }
            for bucket in diff.updatedBuckets { targets[bucket.bucket] = bucket }
            // The diff's write checkpoint replaces the one before, absent too, as the SDK core
            // does (powersync-sqlite-core 60ebb70, crates/core/src/sync/streaming_sync.rs,
            // `OwnedCheckpoint::apply_diff`: `self.write_checkpoint = diff.write_checkpoint`).
            phase = .checkpoint(targets: targets, lastOpID: diff.lastOpID, writeCheckpoint: diff.writeCheckpoint)
            return .announced(writeCheckpoint: diff.writeCheckpoint)
        case .data(let data):
            var state = running[data.bucket] ?? .empty
            for op in data.ops { state.sum = state.sum.adding(op) }
            state.position = max(state.position, data.nextAfter)
            running[data.bucket] = state
            pending[data.bucket, default: []] += data.ops
            return .none
        case .partialCheckpointComplete(_, let priority):
            guard case .checkpoint(let targets, let lastOpID, let writeCheckpoint) = phase else { return .none }
            // PowerSync's sync_local for a priority: the buckets at it or higher, as one unit.
            let covered = targets.filter { $0.value.priority <= priority }
            if let mismatched = discardMismatched(covered) { return .mismatch(mismatched) }
            var buckets = held
            for name in covered.keys { buckets[name] = running[name] ?? .empty }
            return .partiallyComplete(
                CompletedCheckpoint(
                    lastOpID: lastOpID, writeCheckpoint: writeCheckpoint, buckets: buckets, ops: pending.filter { covered[$0.key] != nil },
                    restarted: Set(covered.keys.filter { held[$0] == nil }), removed: [], priority: priority),
                writeCheckpoint: writeCheckpoint)
        case .checkpointComplete:
            guard case .checkpoint(let targets, let lastOpID, let writeCheckpoint) = phase else { return .none }
            if let mismatched = discardMismatched(targets) { return .mismatch(mismatched) }
            var buckets: [String: BucketState] = [:]
            for name in targets.keys { buckets[name] = running[name] ?? .empty }
            return .complete(
                CompletedCheckpoint(
                    lastOpID: lastOpID, writeCheckpoint: writeCheckpoint, buckets: buckets, ops: pending.filter { targets[$0.key] != nil },
                    restarted: Set(targets.keys.filter { held[$0] == nil }), removed: Set(held.keys.filter { targets[$0] == nil })))
        case .tokenExpiresIn, .unknown:
            // A line of a kind the core does not know is skipped (line.rs, UnknownSyncLine).
            return .none
        }
    }

    /// The client applied a completed checkpoint: it is now what the client holds.
    /// - Parameter checkpoint: the applied checkpoint.
    mutating func applied(_ checkpoint: CompletedCheckpoint) {
        guard checkpoint.priority != nil else {
            held = checkpoint.buckets
            running = checkpoint.buckets
            pending = [:]
            return
        }
        // A partial one: only its buckets are now held; the others keep what is pending.
        for name in checkpoint.ops.keys { pending[name] = nil }
        for name in checkpoint.buckets.keys where held[name] != checkpoint.buckets[name] {
            held[name] = checkpoint.buckets[name]
            pending[name] = nil
        }
    }

    /// Discards the buckets whose ops do not add up to their checksum (their pending ops and
    /// their position, so the next stream asks for them from the start).
    /// - Returns: the discarded buckets, nil when all add up (or the fault skips the check).
    private mutating func discardMismatched(_ targets: [String: BucketChecksum]) -> [String]? {
        let mismatched = targets.filter { (running[$0.key] ?? .empty).sum != $0.value.checksum }.keys.sorted()
        guard verifiesChecksums && !mismatched.isEmpty else { return nil }
        for name in mismatched {
            running[name] = nil
            pending[name] = nil
            held[name] = nil
        }
        return mismatched
    }
}
