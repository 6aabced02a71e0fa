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
        /// A priority's buckets are complete.
        case partiallyComplete(writeCheckpoint: OpID?)
        /// A whole checkpoint arrived and adds up.
        case complete(CompletedCheckpoint)
        /// These buckets did not add up; their data is discarded.
        case mismatch([String])
    }

    private enum Phase: Sendable {
        case awaitingCheckpoint
        case checkpoint(targets: [String: Checksum], lastOpID: OpID, writeCheckpoint: OpID?)
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
            let targets = Dictionary(checkpoint.buckets.map { ($0.bucket, $0.checksum) }, uniquingKeysWith: { $1 })
            phase = .checkpoint(targets: targets, lastOpID: checkpoint.lastOpID, writeCheckpoint: checkpoint.writeCheckpoint)
            return .announced(writeCheckpoint: checkpoint.writeCheckpoint)
        case .checkpointDiff(let diff):
            guard case .checkpoint(var targets, _, let previous) = phase else { return .none }
            for name in diff.removedBuckets { targets[name] = nil }
            for bucket in diff.updatedBuckets { targets[bucket.bucket] = bucket.checksum }
            let writeCheckpoint = diff.writeCheckpoint ?? previous
            phase = .checkpoint(targets: targets, lastOpID: diff.lastOpID, writeCheckpoint: writeCheckpoint)
            return .announced(writeCheckpoint: writeCheckpoint)
        case .data(let data):
            var state = running[data.bucket] ?? .empty
            for op in data.ops { state.sum = state.sum.adding(op) }
            state.position = max(state.position, data.nextAfter)
            running[data.bucket] = state
            pending[data.bucket, default: []] += data.ops
            return .none
        case .partialCheckpointComplete:
            guard case .checkpoint(_, _, let writeCheckpoint) = phase else { return .none }
            return .partiallyComplete(writeCheckpoint: writeCheckpoint)
        case .checkpointComplete:
            guard case .checkpoint(let targets, let lastOpID, let writeCheckpoint) = phase else { return .none }
            let mismatched = targets.filter { (running[$0.key] ?? .empty).sum != $0.value }.keys.sorted()
            if verifiesChecksums && !mismatched.isEmpty {
                for name in mismatched {
                    running[name] = nil
                    pending[name] = nil
                    held[name] = nil
                }
                return .mismatch(mismatched)
            }
            var buckets: [String: BucketState] = [:]
            for name in targets.keys { buckets[name] = running[name] ?? .empty }
            return .complete(
                CompletedCheckpoint(
                    lastOpID: lastOpID, writeCheckpoint: writeCheckpoint, buckets: buckets, ops: pending.filter { targets[$0.key] != nil },
                    restarted: Set(targets.keys.filter { held[$0] == nil }), removed: Set(held.keys.filter { targets[$0] == nil })))
        case .tokenExpiresIn:
            return .none
        }
    }

    /// The client applied a completed checkpoint: it is now what the client holds.
    /// - Parameter checkpoint: the applied checkpoint.
    mutating func applied(_ checkpoint: CompletedCheckpoint) {
        held = checkpoint.buckets
        running = checkpoint.buckets
        pending = [:]
    }
}
