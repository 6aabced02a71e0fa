import Corpus
import JSON
import PowerSyncWire
import SQLite

/// The client's local SQLite database: rows, the buckets it holds, the upload queue, its
/// checkpoint requests and a few values (the request counter, the last applied checkpoint, the
/// write checkpoint it waits for). Owned by one `PowerSync.Client` actor.
final class LocalDatabase {
    typealias Connection = SQLiteConnection<PowerSync.ClientError>
    let connection: Connection

    init(path: String) throws(PowerSync.ClientError) {
        connection = try Connection(path: path)
        try connection.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=FULL;
            CREATE TABLE IF NOT EXISTS ps_rows (tbl TEXT NOT NULL, id TEXT NOT NULL, bucket TEXT, data TEXT NOT NULL, PRIMARY KEY (tbl, id));
            CREATE TABLE IF NOT EXISTS ps_buckets (name TEXT PRIMARY KEY, position INTEGER NOT NULL, sum INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS ps_upload_queue (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS ps_requests (id INTEGER PRIMARY KEY, synced INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS ps_kv (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            """)
    }

    // MARK: values

    func value(_ key: String) throws(PowerSync.ClientError) -> Int64? {
        try connection.query("SELECT value FROM ps_kv WHERE key = ?", [.text(key)]) { row in row.integer(0) }.first
    }

    func set(_ key: String, _ value: Int64?) throws(PowerSync.ClientError) {
        if let value {
            try connection.run("INSERT OR REPLACE INTO ps_kv (key, value) VALUES (?, ?)", [.text(key), .integer(value)])
        } else {
            try connection.run("DELETE FROM ps_kv WHERE key = ?", [.text(key)])
        }
    }

    // MARK: rows

    func rows() throws(PowerSync.ClientError) -> [String: [String: JSONObject]] {
        var rows: [String: [String: JSONObject]] = [:]
        let all = try connection.query("SELECT tbl, id, data FROM ps_rows ORDER BY tbl, id") { row in
            (row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "{}")
        }
        for (table, id, data) in all {
            rows[table, default: [:]][id] = (try? JSONParser.parse(Array(data.utf8)))?.objectValue ?? JSONObject()
        }
        return rows
    }

    func row(_ table: String, _ id: String) throws(PowerSync.ClientError) -> JSONObject? {
        try connection.query("SELECT data FROM ps_rows WHERE tbl = ? AND id = ?", [.text(table), .text(id)]) { row in row.text(0) ?? "{}" }
            .first.flatMap { (try? JSONParser.parse(Array($0.utf8)))?.objectValue }
    }

    func put(_ table: String, _ id: String, _ data: JSONObject, bucket: String?) throws(PowerSync.ClientError) {
        try connection.run(
            "INSERT OR REPLACE INTO ps_rows (tbl, id, bucket, data) VALUES (?, ?, ?, ?)",
            [.text(table), .text(id), bucket.map { .text($0) } ?? .null, .text(CanonicalJSON.compact(.object(data)))])
    }

    func delete(_ table: String, _ id: String) throws(PowerSync.ClientError) {
        try connection.run("DELETE FROM ps_rows WHERE tbl = ? AND id = ?", [.text(table), .text(id)])
    }

    func clearRows(ofBucket bucket: String) throws(PowerSync.ClientError) {
        try connection.run("DELETE FROM ps_rows WHERE bucket = ?", [.text(bucket)])
    }

    // MARK: buckets

    func buckets() throws(PowerSync.ClientError) -> [String: BucketState] {
        let all = try connection.query("SELECT name, position, sum FROM ps_buckets ORDER BY name") { row in
            (row.text(0) ?? "", row.integer(1), row.integer(2))
        }
        var buckets: [String: BucketState] = [:]
        for (name, position, sum) in all {
            buckets[name] = BucketState(position: OpID(position) ?? .zero, sum: Checksum(UInt32(truncatingIfNeeded: sum)))
        }
        return buckets
    }

    func setBuckets(_ buckets: [String: BucketState]) throws(PowerSync.ClientError) {
        try connection.run("DELETE FROM ps_buckets")
        for (name, state) in buckets {
            try connection.run(
                "INSERT INTO ps_buckets (name, position, sum) VALUES (?, ?, ?)",
                [.text(name), .integer(state.position.value), .integer(Int64(state.sum.value))])
        }
    }

    func forgetBucket(_ name: String) throws(PowerSync.ClientError) {
        try connection.run("DELETE FROM ps_buckets WHERE name = ?", [.text(name)])
    }

    // MARK: upload queue

    func queue() throws(PowerSync.ClientError) -> [JSONValue] {
        try connection.query("SELECT entry FROM ps_upload_queue ORDER BY seq") { row in
            (try? JSONParser.parse(Array((row.text(0) ?? "null").utf8))) ?? .null
        }
    }

    func enqueue(_ entry: JSONValue) throws(PowerSync.ClientError) {
        try connection.run("INSERT INTO ps_upload_queue (entry) VALUES (?)", [.text(CanonicalJSON.compact(entry))])
    }

    func queueDepth() throws(PowerSync.ClientError) -> Int {
        Int(try connection.query("SELECT count(*) FROM ps_upload_queue") { row in row.integer(0) }.first ?? 0)
    }

    func dequeue(_ count: Int) throws(PowerSync.ClientError) {
        try connection.run(
            "DELETE FROM ps_upload_queue WHERE seq IN (SELECT seq FROM ps_upload_queue ORDER BY seq LIMIT ?)", [.integer(Int64(count))])
    }

    // MARK: requests

    func requests() throws(PowerSync.ClientError) -> [Int64: Bool] {
        var requests: [Int64: Bool] = [:]
        for (id, synced) in try connection.query("SELECT id, synced FROM ps_requests", [], { row in (row.integer(0), row.integer(1)) }) {
            requests[id] = synced != 0
        }
        return requests
    }

    func addRequest(_ id: Int64) throws(PowerSync.ClientError) {
        try connection.run("INSERT OR IGNORE INTO ps_requests (id, synced) VALUES (?, 0)", [.integer(id)])
    }

    func markSynced(through id: Int64) throws(PowerSync.ClientError) {
        try connection.run("UPDATE ps_requests SET synced = 1 WHERE id <= ?", [.integer(id)])
    }

    /// Clears everything: rows, buckets, queue, requests and values.
    func reset() throws(PowerSync.ClientError) {
        try connection.execute(
            "DELETE FROM ps_rows; DELETE FROM ps_buckets; DELETE FROM ps_upload_queue; DELETE FROM ps_requests; DELETE FROM ps_kv;")
    }
}
