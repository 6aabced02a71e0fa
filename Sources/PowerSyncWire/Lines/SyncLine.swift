import JSON

/// One line of the NDJSON sync stream (`POST /sync/stream`): an object with exactly one key,
/// naming the line kind.
public enum SyncLine: Sendable, Hashable {
    /// `checkpoint`: a new checkpoint, resetting the checkpoint state.
    case checkpoint(Checkpoint)
    /// `checkpoint_diff`: a new checkpoint as changes to the one it follows.
    case checkpointDiff(CheckpointDiff)
    /// `data`: ops of one bucket.
    case data(BucketData)
    /// `partial_checkpoint_complete`: every bucket at `priority` or higher (a number ≤ it) is complete.
    case partialCheckpointComplete(lastOpID: OpID, priority: Int)
    /// `checkpoint_complete`: all data of the last checkpoint has been sent.
    case checkpointComplete(lastOpID: OpID)
    /// `token_expires_in`: a keepalive with the seconds until the token expires.
    case tokenExpiresIn(Int)
    /// A line of a kind this version does not know (one key, any body): skipped, as the SDK core
    /// skips it (powersync-sqlite-core 60ebb70, crates/core/src/sync/line.rs,
    /// `SyncLine::UnknownSyncLine`), so a newer service's lines are no failure.
    case unknown(kind: String, body: JSONValue)

    /// The line kind as the wire names it, e.g. "checkpoint_diff".
    public var kind: String {
        switch self {
        case .checkpoint: "checkpoint"
        case .checkpointDiff: "checkpoint_diff"
        case .data: "data"
        case .partialCheckpointComplete: "partial_checkpoint_complete"
        case .checkpointComplete: "checkpoint_complete"
        case .tokenExpiresIn: "token_expires_in"
        case .unknown(let kind, _): kind
        }
    }

    /// The six line kinds.
    public static let kinds = [
        "checkpoint", "checkpoint_diff", "data", "partial_checkpoint_complete", "checkpoint_complete", "token_expires_in",
    ]

    /// Reads one line, already parsed by KizunaWire's JSON parser. Pointers are relative to
    /// the line (`/checkpoint/buckets/0/checksum`).
    /// - Parameter json: the line.
    /// - Throws: `PowerSync.ShapeError`: .unknownLine when it is not one object with one key
    ///   (the core's enum decoding refuses that too), else the shape error of a known kind's body.
    ///   A key of no known kind is `.unknown`, not an error.
    public init(json: JSONValue) throws(PowerSync.ShapeError) {
        guard case .object(let object) = json else {
            throw PowerSync.ShapeError(.unknownLine, at: .root, "a sync line is an object, found \(json.typeName)")
        }
        guard object.count == 1, let member = object.members.first else {
            throw PowerSync.ShapeError(
                .unknownLine, at: .root, "a sync line has exactly one key (\(Self.kinds.joined(separator: "|"))), found \(object.count)")
        }
        let at = JSONPointer(tokens: [member.key])
        switch member.key {
        case "checkpoint": self = .checkpoint(try Checkpoint(json: member.value, at: at))
        case "checkpoint_diff": self = .checkpointDiff(try CheckpointDiff(json: member.value, at: at))
        case "data": self = .data(try BucketData(json: member.value, at: at))
        case "partial_checkpoint_complete":
            var reader = try MemberReader(member.value, at: at, kind: .malformedLine)
            let lastOpID = try reader.opID("last_op_id")
            let priority = try BucketChecksum.priority(&reader)
            self = .partialCheckpointComplete(lastOpID: lastOpID, priority: priority)
        case "checkpoint_complete":
            var reader = try MemberReader(member.value, at: at, kind: .malformedLine)
            self = .checkpointComplete(lastOpID: try reader.opID("last_op_id"))
        case "token_expires_in":
            guard case .number(let number) = member.value, let seconds = number.intValue, Int32(exactly: seconds) != nil else {
                throw PowerSync.ShapeError(
                    .malformedLine, at: at, "token_expires_in is a 32-bit integer of seconds, found \(CanonicalJSON.compact(member.value))")
            }
            self = .tokenExpiresIn(seconds)
        default:
            self = .unknown(kind: member.key, body: member.value)
        }
    }
}
