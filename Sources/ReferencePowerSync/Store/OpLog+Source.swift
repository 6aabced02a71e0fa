import Corpus
import JSON
import PowerSyncWire
import SQLite

extension OpLog {
    /// Commits one source transaction: its op and bucket changes wait for replication (at once
    /// when the commit is replicated), stored ids are written as they are.
    /// - Throws: `PowerSync.ServiceError` (.source) for a checksum or id the service cannot read.
    func commit(_ commit: SourceCommit) throws(PowerSync.ServiceError) {
        let lsn = try position("source") + 1
        try setPosition("source", lsn)
        for (index, change) in commit.changes.enumerated() {
            let at = JSONPointer(tokens: ["changes", String(index)])
            switch change {
            case .put(let bucket, let objectType, let objectID, let data, let checksum, let subkey):
                try pend(lsn, "PUT", bucket, objectType, objectID, data, try Self.checksum(checksum, at: at), subkey: subkey)
            case .remove(let bucket, let objectType, let objectID, let checksum, let subkey):
                try pend(lsn, "REMOVE", bucket, objectType, objectID, nil, try Self.checksum(checksum, at: at), subkey: subkey)
            case .move(let bucket, let checksum): try pend(lsn, "MOVE", bucket, nil, nil, nil, try Self.checksum(checksum, at: at))
            case .clear(let bucket, let checksum): try pend(lsn, "CLEAR", bucket, nil, nil, nil, try Self.checksum(checksum, at: at))
            case .grant(let bucket, let user, let priority):
                try db.run(
                    "INSERT INTO pending (lsn, kind, bucket, user_id, priority) VALUES (?, 'grant', ?, ?, ?)",
                    [.integer(lsn), .text(bucket), .text(user), priority.map { .integer(Int64($0)) } ?? .null])
            case .revoke(let bucket, let user):
                try db.run(
                    "INSERT INTO pending (lsn, kind, bucket, user_id) VALUES (?, 'revoke', ?, ?)",
                    [.integer(lsn), .text(bucket), .text(user)])
            case .writeCheckpoint(let user, let id):
                try setCheckpoint(of: Self.owner(user: user, client: nil), id: try Self.id(id, at: at), lsn: lsn)
            case .checkpointRequest(let user, let client, let id):
                try setCheckpoint(of: Self.owner(user: user, client: client), id: try Self.id(id, at: at), lsn: lsn)
            }
        }
        if commit.replicated { try replicate() }
    }

    /// Replication catches up: every pending change in commit order becomes an op (numbered
    /// from the head) or a grant or revoke, and the replicated position reaches the source's.
    func replicate() throws(PowerSync.ServiceError) {
        var head = try position("head")
        let rows = try db.query(
            "SELECT kind, bucket, object_type, object_id, data, checksum, user_id, priority, subkey FROM pending ORDER BY seq"
        ) { row throws(PowerSync.ServiceError) in
            (
                kind: row.text(0) ?? "", bucket: row.text(1) ?? "", objectType: row.text(2), objectID: row.text(3), data: row.text(4),
                checksum: row.integer(5), user: row.text(6) ?? "", priority: row.isNull(7) ? SQLiteValue.null : .integer(row.integer(7)),
                subkey: row.text(8)
            )
        }
        for row in rows {
            switch row.kind {
            case "grant":
                let order =
                    (try db.query("SELECT COALESCE(MAX(ord), 0) FROM grants") { r throws(PowerSync.ServiceError) in r.integer(0) }.first
                        ?? 0)
                    + 1
                try db.run(
                    "INSERT INTO grants VALUES (?, ?, ?, ?) ON CONFLICT (user_id, bucket) DO UPDATE SET priority = excluded.priority",
                    [.text(row.user), .text(row.bucket), row.priority, .integer(order)])
            case "revoke":
                try db.run("DELETE FROM grants WHERE user_id = ? AND bucket = ?", [.text(row.user), .text(row.bucket)])
            default:
                head += 1
                try db.run(
                    "INSERT INTO ops VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(head), .text(row.bucket), .text(row.kind), row.objectType.map { .text($0) } ?? .null,
                        row.objectID.map { .text($0) } ?? .null, row.data.map { .text($0) } ?? .null, .integer(row.checksum),
                        row.subkey.map { .text($0) } ?? .null,
                    ])
            }
        }
        try db.run("DELETE FROM pending")
        try setPosition("head", head)
        try setPosition("replicated", try position("source"))
    }

    private func pend(
        _ lsn: Int64, _ kind: String, _ bucket: String, _ objectType: String?, _ objectID: String?, _ data: String?, _ checksum: UInt32,
        subkey: String? = nil
    ) throws(PowerSync.ServiceError) {
        try db.run(
            "INSERT INTO pending (lsn, kind, bucket, object_type, object_id, data, checksum, subkey) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(lsn), .text(kind), .text(bucket), objectType.map { .text($0) } ?? .null, objectID.map { .text($0) } ?? .null,
                data.map { .text($0) } ?? .null, .integer(Int64(checksum)), subkey.map { .text($0) } ?? .null,
            ])
    }

    private static func checksum(_ value: JSONValue, at pointer: JSONPointer) throws(PowerSync.ServiceError) -> UInt32 {
        do throws(PowerSync.ShapeError) { return try Checksum.read(value, at: pointer.appending("checksum")).value } catch {
            throw .source("\(error.pointer): \(error.detail)")
        }
    }

    private static func id(_ text: String, at pointer: JSONPointer) throws(PowerSync.ServiceError) -> Int64 {
        guard let id = OpID.parse(text) else { throw .source("\(pointer.appending("id")): \(text) is not an id up to 2^63-1") }
        return id.value
    }
}
