import JSON

/// The body of `POST /sync/stream` (`StreamingSyncRequest`), as far as the rules read it: the
/// buckets the client already holds and where each stands, and the client id.
public struct SyncStreamRequest: Sendable, Hashable {
    /// A bucket the client holds: sync it from op ids after `after`.
    public struct BucketPosition: Sendable, Hashable {
        /// The bucket name.
        public var name: String
        /// The client's position in it.
        public var after: OpID

        /// Makes a position.
        /// - Parameters:
        ///   - name: the bucket.
        ///   - after: the position.
        public init(name: String, after: OpID) {
            self.name = name
            self.after = after
        }
    }

    /// The buckets the client holds, in request order.
    public var buckets: [BucketPosition]
    /// The client id, when sent.
    public var clientID: String?

    /// Makes a request.
    /// - Parameters:
    ///   - buckets: the positions.
    ///   - clientID: the client id.
    public init(buckets: [BucketPosition] = [], clientID: String? = nil) {
        self.buckets = buckets
        self.clientID = clientID
    }

    /// The client's position in a bucket, nil when it holds none.
    /// - Returns: the `after` it sent.
    public func position(of bucket: String) -> OpID? { buckets.first { $0.name == bucket }?.after }

    /// Reads the request body: `buckets` (each `name` and `after`) and `client_id`. Every other
    /// member is allowed and not read, as the service allows them (sync-stream.ts:
    /// `createTsCodecValidator(util.StreamingSyncRequest, { allowAdditional: true })`): an SDK
    /// sends `only`, `include_checksum`, `raw_data`, `binary_data`, `parameters`, `app_metadata`
    /// and `streams`, and newer ones may send more.
    /// - Throws: `PowerSync.ShapeError` (.malformedRequest).
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedRequest)
        var buckets: [BucketPosition] = []
        if reader.object["buckets"] != nil {
            for (index, element) in try reader.array("buckets").enumerated() {
                var bucket = try MemberReader(element, at: pointer.appending("buckets").appending(index), kind: .malformedRequest)
                buckets.append(BucketPosition(name: try bucket.string("name"), after: try bucket.opID("after")))
            }
        }
        self.buckets = buckets
        clientID = try reader.optionalString("client_id")
    }
}
