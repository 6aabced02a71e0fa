import PowerSyncWire

/// Where one open sync stream stands: the user it serves, the client's position in each bucket
/// (from the request, then what the stream has sent), and the checkpoint it last sent (nil
/// before the first), so the next answer is a `checkpoint_diff` against it.
public struct StreamCursor: Sendable, Hashable {
    /// What a checkpoint commits the client to: the acknowledged write checkpoint and the buckets.
    struct Sent: Sendable, Hashable {
        var writeCheckpoint: Int64?
        var buckets: [BucketChecksum]
    }

    /// The authenticated user.
    public let userID: String
    /// The client id the stream was opened with, whose checkpoint requests it acknowledges.
    public let clientID: String?
    /// The client's position per bucket (absent: 0, it holds nothing).
    var positions: [String: Int64]
    /// The last checkpoint sent.
    var sent: Sent?

    /// A stream as it opens.
    /// - Parameters:
    ///   - userID: the user.
    ///   - request: the decoded `POST /sync/stream` body.
    public init(userID: String, request: SyncStreamRequest) {
        self.userID = userID
        clientID = request.clientID
        positions = Dictionary(request.buckets.map { ($0.name, $0.after.value) }, uniquingKeysWith: { _, last in last })
        sent = nil
    }
}
