import PowerSyncWire

/// The checkpoint a stream stands at, as its `checkpoint` and `checkpoint_diff` lines build it:
/// the last op id and the buckets with their checksums and priorities, in first-seen order.
struct CheckpointView: Sendable {
    /// The last op id of the latest checkpoint or diff; nil before the first.
    private(set) var lastOpID: OpID?
    private var byName: [String: BucketChecksum] = [:]
    private var order: [String] = []

    /// Whether the stream has had a checkpoint yet.
    var hasCheckpoint: Bool { lastOpID != nil }

    /// The checkpoint's buckets, in first-seen order.
    var buckets: [BucketChecksum] { order.compactMap { byName[$0] } }

    /// The bucket with a name, if the checkpoint has it.
    func bucket(_ name: String) -> BucketChecksum? { byName[name] }

    /// The buckets a completion at `priority` covers: all for a full completion (nil), else
    /// those at that priority or a higher one (a number at most `priority`).
    func covered(by priority: Int?) -> [BucketChecksum] {
        guard let priority else { return buckets }
        return buckets.filter { $0.priority <= priority }
    }

    /// Applies a checkpoint or diff line; other lines leave the view as it is.
    /// - Returns: the names of buckets that left the checkpoint.
    @discardableResult
    mutating func apply(_ line: SyncLine) -> [String] {
        switch line {
        case .checkpoint(let checkpoint):
            let kept = Set(checkpoint.buckets.map(\.bucket))
            let gone = order.filter { !kept.contains($0) }
            byName = [:]
            order = []
            for bucket in checkpoint.buckets { put(bucket) }
            lastOpID = checkpoint.lastOpID
            return gone
        case .checkpointDiff(let diff):
            let gone = diff.removedBuckets.filter { byName[$0] != nil }
            for name in diff.removedBuckets { byName[name] = nil }
            order.removeAll { byName[$0] == nil }
            for bucket in diff.updatedBuckets { put(bucket) }
            lastOpID = diff.lastOpID
            return gone
        default:
            return []
        }
    }

    /// Forgets everything: a new stream starts with no checkpoint.
    mutating func reset() { self = CheckpointView() }

    private mutating func put(_ bucket: BucketChecksum) {
        if byName[bucket.bucket] == nil { order.append(bucket.bucket) }
        byName[bucket.bucket] = bucket
    }
}
