import JSON

/// A `data` line: ops of one bucket after `after`, up to `next_after`, and whether more follow.
public struct BucketData: Sendable, Hashable {
    /// The bucket.
    public var bucket: String
    /// The ops, in line order.
    public var ops: [OplogEntry]
    /// True when more data for the bucket follows in this checkpoint.
    public var hasMore: Bool
    /// The position this batch starts after: the request's `after`, or the previous batch's `next_after`.
    public var after: OpID
    /// The position the next batch starts after.
    public var nextAfter: OpID

    /// Makes a data line.
    /// - Parameters:
    ///   - bucket: the bucket.
    ///   - ops: the ops.
    ///   - hasMore: whether more follows.
    ///   - after: where it starts.
    ///   - nextAfter: where the next one starts.
    public init(bucket: String, ops: [OplogEntry], hasMore: Bool, after: OpID, nextAfter: OpID) {
        self.bucket = bucket
        self.ops = ops
        self.hasMore = hasMore
        self.after = after
        self.nextAfter = nextAfter
    }

    /// Reads the body of a `data` line.
    /// - Throws: `PowerSync.ShapeError`.
    public init(json: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedLine)
        bucket = try reader.string("bucket")
        var ops: [OplogEntry] = []
        for (index, element) in try reader.array("data").enumerated() {
            ops.append(try OplogEntry(json: element, at: pointer.appending("data").appending(index)))
        }
        self.ops = ops
        hasMore = try reader.bool("has_more")
        after = try reader.opID("after")
        nextAfter = try reader.opID("next_after")
    }
}
