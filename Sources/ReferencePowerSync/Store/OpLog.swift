import PowerSyncWire
import SQLite

/// The service's connection and statements: the shared SQLite wrapper, failing with
/// `PowerSync.ServiceError`.
typealias SQLiteConnection = SQLite.SQLiteConnection<PowerSync.ServiceError>

/// One op of a bucket's log as stored.
struct StoredOp: Sendable, Hashable {
    var opID: Int64
    var op: String
    var objectType: String?
    var objectID: String?
    var data: String?
    var checksum: UInt32
    var subkey: String?
}

/// One of a user's buckets: its name, declared priority and grant order.
struct HeldBucket: Sendable, Hashable {
    var name: String
    var priority: Int?
}

/// The service's tables on one connection (owned by the `PowerSync.Service` actor): the source
/// position and replication position, changes committed but not yet replicated, the op log, the
/// users' buckets, and one managed write checkpoint per user and client.
struct OpLog {
    let db: SQLiteConnection

    init(db: SQLiteConnection) throws(PowerSync.ServiceError) {
        self.db = db
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS positions (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO positions VALUES ('source', 0), ('replicated', 0), ('head', 0);
            CREATE TABLE IF NOT EXISTS pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, lsn INTEGER NOT NULL, kind TEXT NOT NULL,
              bucket TEXT NOT NULL, object_type TEXT, object_id TEXT, data TEXT, checksum INTEGER, user_id TEXT, priority INTEGER,
              subkey TEXT);
            CREATE TABLE IF NOT EXISTS ops (op_id INTEGER PRIMARY KEY, bucket TEXT NOT NULL, op TEXT NOT NULL, object_type TEXT,
              object_id TEXT, data TEXT, checksum INTEGER NOT NULL, subkey TEXT);
            CREATE INDEX IF NOT EXISTS ops_by_bucket ON ops (bucket, op_id);
            CREATE TABLE IF NOT EXISTS grants (user_id TEXT NOT NULL, bucket TEXT NOT NULL, priority INTEGER, ord INTEGER NOT NULL,
              PRIMARY KEY (user_id, bucket));
            CREATE TABLE IF NOT EXISTS checkpoints (owner TEXT PRIMARY KEY, id INTEGER NOT NULL, lsn INTEGER NOT NULL);
            """)
    }

    /// Empties every table and sets every position back to 0.
    func reset() throws(PowerSync.ServiceError) {
        try db.execute(
            """
            DELETE FROM pending; DELETE FROM ops; DELETE FROM grants; DELETE FROM checkpoints;
            UPDATE positions SET value = 0;
            """)
    }

    /// A named position: `source` (the source database's commit count), `replicated` (how far
    /// replication has read it) or `head` (the last op id handed out).
    func position(_ name: String) throws(PowerSync.ServiceError) -> Int64 {
        try db.query("SELECT value FROM positions WHERE name = ?", [.text(name)]) { row throws(PowerSync.ServiceError) in row.integer(0) }
            .first ?? 0
    }

    func setPosition(_ name: String, _ value: Int64) throws(PowerSync.ServiceError) {
        try db.run("UPDATE positions SET value = ? WHERE name = ?", [.integer(value), .text(name)])
    }

    /// The user's buckets in grant order.
    func buckets(of user: String) throws(PowerSync.ServiceError) -> [HeldBucket] {
        try db.query("SELECT bucket, priority FROM grants WHERE user_id = ? ORDER BY ord", [.text(user)]) {
            row throws(PowerSync.ServiceError) in
            HeldBucket(name: row.text(0) ?? "", priority: row.isNull(1) ? nil : Int(row.integer(1)))
        }
    }

    /// Every bucket that has ops.
    func knownBuckets() throws(PowerSync.ServiceError) -> [String] {
        try db.query("SELECT DISTINCT bucket FROM ops ORDER BY bucket") { row throws(PowerSync.ServiceError) in row.text(0) ?? "" }
    }

    /// A bucket's ops after `after` up to `through`, in op-id order.
    func ops(in bucket: String, after: Int64, through: Int64) throws(PowerSync.ServiceError) -> [StoredOp] {
        try db.query(
            "SELECT op_id, op, object_type, object_id, data, checksum, subkey FROM ops WHERE bucket = ? AND op_id > ? AND op_id <= ? ORDER BY op_id",
            [.text(bucket), .integer(after), .integer(through)]
        ) { row throws(PowerSync.ServiceError) in
            StoredOp(
                opID: row.integer(0), op: row.text(1) ?? "", objectType: row.text(2), objectID: row.text(3), data: row.text(4),
                checksum: UInt32(truncatingIfNeeded: row.integer(5)), subkey: row.text(6))
        }
    }

    /// The owner of a managed write checkpoint: the user, or `user/client` when a client is
    /// named, as PowerSync's service keys it (service-core `util/checkpointing.ts`,
    /// `checkpointUserId`). `/write-checkpoint2.json` and `/sync/checkpoint-request` of one user
    /// and client share it, and a stream reads the one of its own user and client.
    static func owner(user: String, client: String?) -> String {
        client.map { "\(user)/\($0)" } ?? user
    }

    /// The managed write checkpoint of an owner: its id and the source position it waits for.
    func checkpoint(of owner: String) throws(PowerSync.ServiceError) -> (id: Int64, lsn: Int64)? {
        try db.query("SELECT id, lsn FROM checkpoints WHERE owner = ?", [.text(owner)]) { row throws(PowerSync.ServiceError) in
            (row.integer(0), row.integer(1))
        }.first
    }

    func setCheckpoint(of owner: String, id: Int64, lsn: Int64) throws(PowerSync.ServiceError) {
        try db.run("INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?)", [.text(owner), .integer(id), .integer(lsn)])
    }

    /// The write checkpoint a stream of the user and client acknowledges at the replication
    /// position: the owner's id once its position is replicated, else none (the one row holds
    /// only the latest id; service storage `lastWriteCheckpoint`, e.g. module-postgres-storage
    /// `PostgresWriteCheckpointAPI.ts` `lastManagedWriteCheckpoint`).
    func acknowledged(user: String, client: String?, replicated: Int64) throws(PowerSync.ServiceError) -> Int64? {
        guard let held = try checkpoint(of: Self.owner(user: user, client: client)), held.lsn <= replicated else { return nil }
        return held.id
    }
}
