import JSON

/// A `checkpoint` line: a new checkpoint with every bucket's checksum. It resets the
/// checkpoint state; `write_checkpoint` acknowledges a write checkpoint or checkpoint request.
public struct Checkpoint: Sendable, Hashable {
    /// The op id the checkpoint covers up to.
    public var lastOpID: OpID
    /// The write checkpoint (checkpoint-request id) it acknowledges, if any.
    public var writeCheckpoint: OpID?
    /// The buckets, in line order.
    public var buckets: [BucketChecksum]

    /// Makes a checkpoint.
    public init(lastOpID: OpID, writeCheckpoint: OpID? = nil, buckets: [BucketChecksum]) {
        self.lastOpID = lastOpID
        self.writeCheckpoint = writeCheckpoint
        self.buckets = buckets
    }

    /// Reads the body of a `checkpoint` line.
    /// - Throws: `PowerSync.ShapeError` (.malformedLine).
    public init(json: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedLine)
        lastOpID = try reader.opID("last_op_id")
        writeCheckpoint = try reader.optionalOpID("write_checkpoint")
        var buckets: [BucketChecksum] = []
        for (index, element) in try reader.array("buckets").enumerated() {
            buckets.append(try BucketChecksum(json: element, at: pointer.appending("buckets").appending(index)))
        }
        self.buckets = buckets
    }
}

/// A `checkpoint_diff` line: the same meaning as a checkpoint, sent as the buckets that changed
/// or went away since the checkpoint it follows.
public struct CheckpointDiff: Sendable, Hashable {
    /// The op id the new checkpoint covers up to.
    public var lastOpID: OpID
    /// The write checkpoint it acknowledges, if any.
    public var writeCheckpoint: OpID?
    /// Buckets added or changed.
    public var updatedBuckets: [BucketChecksum]
    /// Names of buckets no longer in the checkpoint.
    public var removedBuckets: [String]

    /// Makes a diff.
    /// - Parameters:
    ///   - lastOpID: the last op id.
    ///   - writeCheckpoint: the write checkpoint.
    ///   - updatedBuckets: changed buckets.
    ///   - removedBuckets: removed bucket names.
    public init(lastOpID: OpID, writeCheckpoint: OpID? = nil, updatedBuckets: [BucketChecksum], removedBuckets: [String]) {
        self.lastOpID = lastOpID
        self.writeCheckpoint = writeCheckpoint
        self.updatedBuckets = updatedBuckets
        self.removedBuckets = removedBuckets
    }

    /// Reads the body of a `checkpoint_diff` line.
    /// - Throws: `PowerSync.ShapeError` (.malformedLine).
    public init(json: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedLine)
        lastOpID = try reader.opID("last_op_id")
        writeCheckpoint = try reader.optionalOpID("write_checkpoint")
        var updated: [BucketChecksum] = []
        for (index, element) in try reader.array("updated_buckets").enumerated() {
            updated.append(try BucketChecksum(json: element, at: pointer.appending("updated_buckets").appending(index)))
        }
        var removed: [String] = []
        for (index, element) in try reader.array("removed_buckets").enumerated() {
            guard case .string(let name) = element else {
                throw PowerSync.ShapeError(
                    .malformedLine, at: pointer.appending("removed_buckets").appending(index),
                    "expected a bucket name, found \(element.typeName)")
            }
            removed.append(name)
        }
        updatedBuckets = updated
        removedBuckets = removed
    }
}
