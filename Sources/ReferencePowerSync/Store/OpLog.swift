import SQLite

/// The service's connection and statements: the shared SQLite wrapper, failing with
/// `PowerSyncServiceError`.
typealias SQLiteConnection = SQLite.SQLiteConnection<PowerSyncServiceError>

/// One op of a bucket's log as stored.
struct StoredOp: Sendable, Hashable {
    var opID: Int64
    var op: String
    var objectType: String?
    var objectID: String?
    var data: String?
    var checksum: UInt32
}

/// One of a user's buckets: its name, declared priority and grant order.
struct HeldBucket: Sendable, Hashable {
    var name: String
    var priority: Int?
}

/// The service's tables on one connection (owned by the `PowerSyncService` actor): the source
/// position and replication position, changes committed but not yet replicated, the op log, the
/// users' buckets, write checkpoints and checkpoint requests.
struct OpLog {
    let db: SQLiteConnection

    init(db: SQLiteConnection) throws(PowerSyncServiceError) {
        self.db = db
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS positions (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO positions VALUES ('source', 0), ('replicated', 0), ('head', 0);
            CREATE TABLE IF NOT EXISTS pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, lsn INTEGER NOT NULL, kind TEXT NOT NULL,
              bucket TEXT NOT NULL, object_type TEXT, object_id TEXT, data TEXT, checksum INTEGER, user_id TEXT, priority INTEGER);
            CREATE TABLE IF NOT EXISTS ops (op_id INTEGER PRIMARY KEY, bucket TEXT NOT NULL, op TEXT NOT NULL, object_type TEXT,
              object_id TEXT, data TEXT, checksum INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS ops_by_bucket ON ops (bucket, op_id);
            CREATE TABLE IF NOT EXISTS grants (user_id TEXT NOT NULL, bucket TEXT NOT NULL, priority INTEGER, ord INTEGER NOT NULL,
              PRIMARY KEY (user_id, bucket));
            CREATE TABLE IF NOT EXISTS write_checkpoints (user_id TEXT NOT NULL, id INTEGER NOT NULL, lsn INTEGER NOT NULL,
              PRIMARY KEY (user_id, id));
            CREATE TABLE IF NOT EXISTS checkpoint_requests (user_id TEXT NOT NULL, client_id TEXT NOT NULL, id INTEGER NOT NULL,
              lsn INTEGER NOT NULL, PRIMARY KEY (user_id, client_id));
            CREATE TABLE IF NOT EXISTS request_acks (user_id TEXT NOT NULL, client_id TEXT NOT NULL, id INTEGER NOT NULL,
              lsn INTEGER NOT NULL);
            """)
    }

    /// Empties every table and sets every position back to 0.
    func reset() throws(PowerSyncServiceError) {
        try db.execute(
            """
            DELETE FROM pending; DELETE FROM ops; DELETE FROM grants; DELETE FROM write_checkpoints; DELETE FROM checkpoint_requests;
            DELETE FROM request_acks;
            UPDATE positions SET value = 0;
            """)
    }

    /// A named position: `source` (the source database's commit count), `replicated` (how far
    /// replication has read it) or `head` (the last op id handed out).
    func position(_ name: String) throws(PowerSyncServiceError) -> Int64 {
        try db.query("SELECT value FROM positions WHERE name = ?", [.text(name)]) { row throws(PowerSyncServiceError) in row.integer(0) }
            .first ?? 0
    }

    func setPosition(_ name: String, _ value: Int64) throws(PowerSyncServiceError) {
        try db.run("UPDATE positions SET value = ? WHERE name = ?", [.integer(value), .text(name)])
    }

    /// The user's buckets in grant order.
    func buckets(of user: String) throws(PowerSyncServiceError) -> [HeldBucket] {
        try db.query("SELECT bucket, priority FROM grants WHERE user_id = ? ORDER BY ord", [.text(user)]) {
            row throws(PowerSyncServiceError) in
            HeldBucket(name: row.text(0) ?? "", priority: row.isNull(1) ? nil : Int(row.integer(1)))
        }
    }

    /// Every bucket that has ops.
    func knownBuckets() throws(PowerSyncServiceError) -> [String] {
        try db.query("SELECT DISTINCT bucket FROM ops ORDER BY bucket") { row throws(PowerSyncServiceError) in row.text(0) ?? "" }
    }

    /// A bucket's ops after `after` up to `through`, in op-id order.
    func ops(in bucket: String, after: Int64, through: Int64) throws(PowerSyncServiceError) -> [StoredOp] {
        try db.query(
            "SELECT op_id, op, object_type, object_id, data, checksum FROM ops WHERE bucket = ? AND op_id > ? AND op_id <= ? ORDER BY op_id",
            [.text(bucket), .integer(after), .integer(through)]
        ) { row throws(PowerSyncServiceError) in
            StoredOp(
                opID: row.integer(0), op: row.text(1) ?? "", objectType: row.text(2), objectID: row.text(3), data: row.text(4),
                checksum: UInt32(truncatingIfNeeded: row.integer(5)))
        }
    }

    /// The user's write checkpoint ids visible at the replication position, ascending.
    func visibleWriteCheckpoints(of user: String, replicated: Int64) throws(PowerSyncServiceError) -> [Int64] {
        try db.query("SELECT id FROM write_checkpoints WHERE user_id = ? AND lsn <= ? ORDER BY id", [.text(user), .integer(replicated)]) {
            row throws(PowerSyncServiceError) in row.integer(0)
        }
    }

    /// The user's last write checkpoint id, visible or not.
    func lastWriteCheckpoint(of user: String) throws(PowerSyncServiceError) -> Int64? {
        try db.query("SELECT MAX(id) FROM write_checkpoints WHERE user_id = ?", [.text(user)]) { row throws(PowerSyncServiceError) in
            row.isNull(0) ? nil : row.integer(0)
        }.first ?? nil
    }

    func addWriteCheckpoint(user: String, id: Int64, lsn: Int64) throws(PowerSyncServiceError) {
        try db.run("INSERT OR REPLACE INTO write_checkpoints VALUES (?, ?, ?)", [.text(user), .integer(id), .integer(lsn)])
    }

    /// The checkpoint-request id held for a user and client.
    func heldRequest(user: String, client: String) throws(PowerSyncServiceError) -> Int64? {
        try db.query("SELECT id FROM checkpoint_requests WHERE user_id = ? AND client_id = ?", [.text(user), .text(client)]) {
            row throws(PowerSyncServiceError) in row.integer(0)
        }.first
    }

    /// Holds `id` for the user and client, and records that a checkpoint covering source position
    /// `lsn` acknowledges `acknowledged` (the id the request was answered with).
    func holdRequest(user: String, client: String, id: Int64, acknowledged: Int64, lsn: Int64) throws(PowerSyncServiceError) {
        try db.run(
            "INSERT OR REPLACE INTO checkpoint_requests VALUES (?, ?, ?, ?)", [.text(user), .text(client), .integer(id), .integer(lsn)])
        try db.run("INSERT INTO request_acks VALUES (?, ?, ?, ?)", [.text(user), .text(client), .integer(acknowledged), .integer(lsn)])
    }

    /// The ids a checkpoint of the user's stream acknowledges at the replication position,
    /// ascending: the write checkpoints whose position is replicated and, for the stream's
    /// client, the checkpoint requests whose position is (the seed: a request is synced once a
    /// checkpoint covering the source position it captured is applied).
    func acknowledged(user: String, client: String?, replicated: Int64) throws(PowerSyncServiceError) -> [Int64] {
        var ids = try visibleWriteCheckpoints(of: user, replicated: replicated)
        if let client {
            ids += try db.query(
                "SELECT id FROM request_acks WHERE user_id = ? AND client_id = ? AND lsn <= ?",
                [.text(user), .text(client), .integer(replicated)]
            ) { row throws(PowerSyncServiceError) in row.integer(0) }
        }
        return ids.sorted()
    }
}
