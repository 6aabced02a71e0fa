import JSON
import KizunaWire

extension SourceCommit {
    /// The commit as a source step writes it, without `kind`, `n` and `during`:
    /// `{"changes": [...], "replicated": bool}` (the body of the PowerSync fixture endpoint).
    public var json: JSONValue {
        .object(JSONObject(pairs: [("changes", .array(changes.map(\.json))), ("replicated", .bool(replicated))]))
    }

    /// Reads a commit written as `json` writes it.
    /// - Throws: `WireError` (.json) naming the pointer.
    public init(json: JSONValue) throws(WireError) {
        var reader = try ObjectReader(json, at: .root, malformed: .json)
        var changes: [SourceChange] = []
        for (index, element) in try reader.array("changes").enumerated() {
            changes.append(try SourceChange(json: element, at: JSONPointer(tokens: ["changes", String(index)])))
        }
        let replicated = reader.has("replicated") ? try reader.bool("replicated") : true
        try reader.finish()
        self.init(changes: changes, replicated: replicated)
    }
}

extension SourceChange {
    /// The change as the grammar writes it: one member naming its kind.
    public var json: JSONValue {
        func change(_ kind: String, _ members: [(String, JSONValue)]) -> JSONValue {
            .object(JSONObject(pairs: [(kind, .object(JSONObject(pairs: members)))]))
        }
        switch self {
        case .put(let bucket, let objectType, let objectID, let data, let checksum, let subkey):
            return change(
                "put",
                [
                    ("bucket", .string(bucket)), ("checksum", checksum), ("data", .string(data)), ("object_id", .string(objectID)),
                    ("object_type", .string(objectType)),
                ] + (subkey.map { [("subkey", .string($0))] } ?? []))
        case .remove(let bucket, let objectType, let objectID, let checksum, let subkey):
            return change(
                "remove",
                [
                    ("bucket", .string(bucket)), ("checksum", checksum), ("object_id", .string(objectID)),
                    ("object_type", .string(objectType)),
                ] + (subkey.map { [("subkey", .string($0))] } ?? []))
        case .move(let bucket, let checksum): return change("move", [("bucket", .string(bucket)), ("checksum", checksum)])
        case .clear(let bucket, let checksum): return change("clear", [("bucket", .string(bucket)), ("checksum", checksum)])
        case .grant(let bucket, let userID, let priority):
            var members: [(String, JSONValue)] = [("bucket", .string(bucket))]
            if let priority { members.append(("priority", .number(JSONNumber(priority)))) }
            members.append(("user_id", .string(userID)))
            return change("grant", members)
        case .revoke(let bucket, let userID): return change("revoke", [("bucket", .string(bucket)), ("user_id", .string(userID))])
        case .writeCheckpoint(let userID, let id): return change("write_checkpoint", [("id", .string(id)), ("user_id", .string(userID))])
        case .checkpointRequest(let userID, let clientID, let id):
            return change("checkpoint_request", [("client_id", .string(clientID)), ("id", .string(id)), ("user_id", .string(userID))])
        }
    }
}
