import JSON

extension SyncLine {
    /// The line as the wire writes it: one object with one key naming its kind; ids as decimal
    /// strings, checksums as u32 integers, members in canonical (sorted) order. Decoding the
    /// result gives the same line back.
    public var json: JSONValue {
        switch self {
        case .checkpoint(let checkpoint):
            var members: [(String, JSONValue)] = [
                ("buckets", .array(checkpoint.buckets.map(\.json))), ("last_op_id", .string(checkpoint.lastOpID.description)),
            ]
            if let write = checkpoint.writeCheckpoint { members.append(("write_checkpoint", .string(write.description))) }
            return Self.line("checkpoint", members)
        case .checkpointDiff(let diff):
            var members: [(String, JSONValue)] = [
                ("last_op_id", .string(diff.lastOpID.description)), ("removed_buckets", .array(diff.removedBuckets.map { .string($0) })),
                ("updated_buckets", .array(diff.updatedBuckets.map(\.json))),
            ]
            if let write = diff.writeCheckpoint { members.append(("write_checkpoint", .string(write.description))) }
            return Self.line("checkpoint_diff", members)
        case .data(let data):
            return Self.line(
                "data",
                [
                    ("after", .string(data.after.description)), ("bucket", .string(data.bucket)), ("data", .array(data.ops.map(\.json))),
                    ("has_more", .bool(data.hasMore)), ("next_after", .string(data.nextAfter.description)),
                ])
        case .partialCheckpointComplete(let lastOpID, let priority):
            return Self.line(
                "partial_checkpoint_complete", [("last_op_id", .string(lastOpID.description)), ("priority", .number(JSONNumber(priority)))])
        case .checkpointComplete(let lastOpID):
            return Self.line("checkpoint_complete", [("last_op_id", .string(lastOpID.description))])
        case .tokenExpiresIn(let seconds):
            return .object(JSONObject(pairs: [("token_expires_in", .number(JSONNumber(seconds)))]))
        case .unknown(let kind, let body):
            return .object(JSONObject(pairs: [(kind, body)]))
        }
    }

    private static func line(_ kind: String, _ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs: [(kind, .object(JSONObject(pairs: members)))]))
    }
}

extension BucketChecksum {
    /// The bucket's entry as a checkpoint or diff writes it (`priority` only when declared).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("bucket", .string(bucket)), ("checksum", checksum.json)]
        if let count { members.append(("count", .number(JSONNumber(count)))) }
        if let declaredPriority { members.append(("priority", .number(JSONNumber(declaredPriority)))) }
        return .object(JSONObject(pairs: members))
    }
}

extension OplogEntry {
    /// The op as a `data` line writes it: PUT with `data`, `object_id` and `object_type`, REMOVE
    /// with the last two, MOVE and CLEAR with neither unless they carry them.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("checksum", checksum.json)]
        if let data { members.append(("data", data)) }
        if let objectID { members.append(("object_id", .string(objectID))) }
        if let objectType { members.append(("object_type", .string(objectType))) }
        members.append(("op", .string(op.rawValue)))
        members.append(("op_id", .string(opID.description)))
        if let subkey { members.append(("subkey", .string(subkey))) }
        return .object(JSONObject(pairs: members))
    }
}
