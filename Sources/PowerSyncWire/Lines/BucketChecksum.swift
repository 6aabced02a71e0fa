import JSON

/// One bucket of a checkpoint: its name, the checksum its ops add up to, the op count and the
/// priority it syncs at (0 is the highest; the SDK core reads an absent priority as 3).
public struct BucketChecksum: Sendable, Hashable {
    /// The priority the SDK core falls back to when a bucket names none.
    public static let fallbackPriority = 3

    /// The bucket name.
    public var bucket: String
    /// The wrapping u32 sum the bucket's ops must add up to at completion.
    public var checksum: Checksum
    /// The op count (informational).
    public var count: Int?
    /// The priority as written, nil when absent.
    public var declaredPriority: Int?

    /// Makes a bucket checksum.
    /// - Parameters:
    ///   - bucket: the name.
    ///   - checksum: the checksum.
    ///   - count: the op count.
    ///   - priority: the priority.
    public init(bucket: String, checksum: Checksum, count: Int? = nil, priority: Int? = nil) {
        self.bucket = bucket
        self.checksum = checksum
        self.count = count
        self.declaredPriority = priority
    }

    /// The priority the bucket syncs at: the declared one, else 3.
    public var priority: Int { declaredPriority ?? Self.fallbackPriority }

    /// Reads a bucket checksum (`{bucket, checksum, count?, priority?, subscriptions?}`).
    /// - Parameters:
    ///   - json: the object.
    ///   - pointer: where it sits.
    /// - Throws: `PowerSync.ShapeError` (.malformedLine).
    public init(json: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedLine)
        bucket = try reader.string("bucket")
        checksum = try reader.checksum("checksum")
        count = reader.object["count"] == nil ? nil : try reader.integer("count", in: 0...Int.max)
        declaredPriority = reader.object["priority"] == nil ? nil : try Self.priority(&reader)
    }

    /// Reads a `priority` member: 0 or more, fitting an i32, below the SDK core's sentinel.
    static func priority(_ reader: inout MemberReader) throws(PowerSync.ShapeError) -> Int {
        try reader.integer("priority", in: 0...(Int(Int32.max) - 1))
    }
}
