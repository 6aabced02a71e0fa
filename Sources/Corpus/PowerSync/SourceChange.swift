import JSON
import KizunaWire

/// One change in a source-database transaction, as the service's replication turns it into
/// bucket ops and bucket membership (docs/powersync.md, "Source steps"), or a value an earlier
/// session left in the service's own storage.
public enum SourceChange: Sendable, Hashable {
    /// A row put into a bucket: a PUT op with the row's data and the op checksum, and the
    /// `subkey` PowerSync's service gives the row's op when stated.
    case put(bucket: String, objectType: String, objectID: String, data: String, checksum: JSONValue, subkey: String? = nil)
    /// A row removed from a bucket: a REMOVE op.
    case remove(bucket: String, objectType: String, objectID: String, checksum: JSONValue, subkey: String? = nil)
    /// A MOVE op: a row that moved out of the bucket, keeping its checksum.
    case move(bucket: String, checksum: JSONValue)
    /// A CLEAR op: the bucket's contents cleared, its checksum replacing the sum.
    case clear(bucket: String, checksum: JSONValue)
    /// The bucket becomes one of the user's buckets, at a priority (nil: none stated, 3).
    case grant(bucket: String, userID: String, priority: Int?)
    /// The bucket stops being one of the user's buckets.
    case revoke(bucket: String, userID: String)
    /// A write checkpoint an earlier session left for the user, already replicated.
    case writeCheckpoint(userID: String, id: String)
    /// A checkpoint-request id an earlier session left for the user and client.
    case checkpointRequest(userID: String, clientID: String, id: String)
}

extension SourceChange {
    /// The change kinds as the grammar writes them.
    static let kinds = ["put", "remove", "move", "clear", "grant", "revoke", "write_checkpoint", "checkpoint_request"]

    /// Reads one change: an object with exactly one member naming its kind.
    /// - Parameters:
    ///   - json: the change.
    ///   - pointer: where it sits.
    /// - Throws: `WireError` (.json) naming the pointer.
    init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        guard let object = json.objectValue, object.members.count == 1, let member = object.members.first,
            Self.kinds.contains(member.key)
        else {
            throw WireError(.json, at: pointer, "a source change is an object with one of \(Self.kinds.joined(separator: "|"))")
        }
        let at = pointer.appending(member.key)
        var reader = try ObjectReader(member.value, at: at, malformed: .json)
        switch member.key {
        case "put":
            self = .put(
                bucket: try reader.string("bucket"), objectType: try reader.string("object_type"),
                objectID: try reader.string("object_id"), data: try reader.string("data"),
                checksum: try Self.checksum(&reader), subkey: try reader.optionalString("subkey"))
        case "remove":
            self = .remove(
                bucket: try reader.string("bucket"), objectType: try reader.string("object_type"),
                objectID: try reader.string("object_id"), checksum: try Self.checksum(&reader), subkey: try reader.optionalString("subkey"))
        case "move": self = .move(bucket: try reader.string("bucket"), checksum: try Self.checksum(&reader))
        case "clear": self = .clear(bucket: try reader.string("bucket"), checksum: try Self.checksum(&reader))
        case "grant":
            self = .grant(
                bucket: try reader.string("bucket"), userID: try reader.string("user_id"), priority: try reader.optionalInteger("priority"))
        case "revoke": self = .revoke(bucket: try reader.string("bucket"), userID: try reader.string("user_id"))
        case "write_checkpoint": self = .writeCheckpoint(userID: try reader.string("user_id"), id: try reader.string("id"))
        default:
            self = .checkpointRequest(
                userID: try reader.string("user_id"), clientID: try reader.string("client_id"), id: try reader.string("id"))
        }
        try reader.finish()
    }

    /// The op checksum: a JSON number, kept as written (the service reads it as PowerSync does).
    private static func checksum(_ reader: inout ObjectReader) throws(WireError) -> JSONValue {
        let value = try reader.required("checksum")
        guard case .number = value else { throw reader.typeError("checksum", "a number", value) }
        return value
    }
}
