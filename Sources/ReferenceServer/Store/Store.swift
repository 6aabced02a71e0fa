/// The server's tables in SQLite: rows, column clocks, tombstones and the counters (next seq,
/// high-water, reap horizon). Every statement is prepared with bound parameters.
final class Store {
    let db: SQLiteConnection

    init(db: SQLiteConnection) throws(ReferenceServerError) {
        self.db = db
        try db.execute(Self.schema)
    }

    static let schema = """
        PRAGMA foreign_keys = OFF;
        CREATE TABLE IF NOT EXISTS kz_meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS kz_rows(
            tbl TEXT NOT NULL, pk TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY(tbl, pk));
        CREATE INDEX IF NOT EXISTS kz_rows_seq ON kz_rows(seq);
        CREATE INDEX IF NOT EXISTS kz_rows_table_seq ON kz_rows(tbl, seq);
        CREATE TABLE IF NOT EXISTS kz_cells(
            tbl TEXT NOT NULL, pk TEXT NOT NULL, col TEXT NOT NULL, seq INTEGER NOT NULL, writer TEXT NOT NULL, hlc TEXT,
            PRIMARY KEY(tbl, pk, col));
        CREATE TABLE IF NOT EXISTS kz_tombstones(
            seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, pk TEXT NOT NULL, deleted_at TEXT NOT NULL, bucket TEXT,
            actor TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS kz_tombstones_key ON kz_tombstones(tbl, pk);
        CREATE INDEX IF NOT EXISTS kz_tombstones_table_seq ON kz_tombstones(tbl, seq);
        CREATE TABLE IF NOT EXISTS kz_ledger(
            mutation_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, client_id TEXT NOT NULL, applied INTEGER NOT NULL,
            reason TEXT, has_row INTEGER NOT NULL, tbl TEXT NOT NULL, pk TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS kz_user_grants(
            user_id TEXT NOT NULL, tbl TEXT NOT NULL, bucket TEXT NOT NULL, PRIMARY KEY(user_id, tbl, bucket));
        CREATE TABLE IF NOT EXISTS kz_conflicts(
            id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, pk TEXT NOT NULL, col TEXT NOT NULL, mode TEXT NOT NULL,
            loser TEXT NOT NULL, winner_mutation TEXT NOT NULL, winner_seq INTEGER NOT NULL, bucket TEXT);
        """

    /// Empties every table (seed).
    func reset(nextSeq: Int64) throws(ReferenceServerError) {
        for table in ["kz_meta", "kz_rows", "kz_cells", "kz_tombstones", "kz_ledger", "kz_user_grants", "kz_conflicts"] {
            try db.run("DELETE FROM \(table)")
        }
        try setMeta(.nextSeq, nextSeq)
        try setMeta(.highWater, 0)
        try setMeta(.reapHorizon, 0)
    }

    // MARK: counters

    enum MetaKey: String { case nextSeq = "next_seq", highWater = "high_water", reapHorizon = "reap_horizon" }

    func meta(_ key: MetaKey) throws(ReferenceServerError) -> Int64 {
        let values = try db.query("SELECT value FROM kz_meta WHERE key = ?1", [.text(key.rawValue)]) { $0.integer(0) }
        return values.first ?? (key == .nextSeq ? 1 : 0)
    }

    func setMeta(_ key: MetaKey, _ value: Int64) throws(ReferenceServerError) {
        try db.run(
            "INSERT INTO kz_meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key.rawValue), .integer(value)])
    }

    /// Takes the next seq of the one global sequence.
    func allocateSeq() throws(ReferenceServerError) -> Int64 {
        let seq = try meta(.nextSeq)
        let (next, overflow) = seq.addingReportingOverflow(1)
        if overflow { throw ReferenceServerError.sql("the global sequence is exhausted at \(seq)") }
        try setMeta(.nextSeq, next)
        return seq
    }

    /// Records that `seq` is committed: the high-water rises to it.
    func committed(_ seq: Int64) throws(ReferenceServerError) {
        if seq > (try meta(.highWater)) { try setMeta(.highWater, seq) }
    }

    // MARK: rows

    func row(_ table: String, _ pk: String) throws(ReferenceServerError) -> StoredRow? {
        try db.query("SELECT seq, data FROM kz_rows WHERE tbl = ?1 AND pk = ?2", [.text(table), .text(pk)]) {
            (statement) throws(ReferenceServerError) in
            StoredRow(table: table, pk: pk, seq: statement.integer(0), data: try StoredJSON.object(statement.text(1) ?? "{}"))
        }.first
    }

    func put(_ row: StoredRow) throws(ReferenceServerError) {
        try db.run(
            """
            INSERT INTO kz_rows(tbl, pk, seq, data) VALUES(?1, ?2, ?3, ?4)
            ON CONFLICT(tbl, pk) DO UPDATE SET seq = excluded.seq, data = excluded.data
            """, [.text(row.table), .text(row.pk), .integer(row.seq), .text(StoredJSON.text(.object(row.data)))])
    }

    func deleteRow(_ table: String, _ pk: String) throws(ReferenceServerError) {
        try db.run("DELETE FROM kz_rows WHERE tbl = ?1 AND pk = ?2", [.text(table), .text(pk)])
        try db.run("DELETE FROM kz_cells WHERE tbl = ?1 AND pk = ?2", [.text(table), .text(pk)])
    }

    // MARK: column clocks

    func cells(_ table: String, _ pk: String) throws(ReferenceServerError) -> [String: StoredCell] {
        var cells: [String: StoredCell] = [:]
        let rows = try db.query("SELECT col, seq, writer, hlc FROM kz_cells WHERE tbl = ?1 AND pk = ?2", [.text(table), .text(pk)]) {
            ($0.text(0) ?? "", StoredCell(seq: $0.integer(1), writer: $0.text(2) ?? "", hlc: $0.text(3)))
        }
        for (column, cell) in rows { cells[column] = cell }
        return cells
    }

    func putCell(_ table: String, _ pk: String, _ column: String, _ cell: StoredCell) throws(ReferenceServerError) {
        try db.run(
            """
            INSERT INTO kz_cells(tbl, pk, col, seq, writer, hlc) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT(tbl, pk, col) DO UPDATE SET seq = excluded.seq, writer = excluded.writer, hlc = excluded.hlc
            """,
            [.text(table), .text(pk), .text(column), .integer(cell.seq), .text(cell.writer), cell.hlc.map { .text($0) } ?? .null])
    }

    // MARK: tombstones

    func latestTombstone(_ table: String, _ pk: String) throws(ReferenceServerError) -> StoredTombstone? {
        try db.query(
            "SELECT seq, deleted_at, bucket, actor FROM kz_tombstones WHERE tbl = ?1 AND pk = ?2 ORDER BY seq DESC LIMIT 1",
            [.text(table), .text(pk)]
        ) { (statement) throws(ReferenceServerError) in
            try Self.tombstone(statement, table: table, pk: pk, offset: 0)
        }.first
    }

    /// Keeps one tombstone per table, pk and bucket value: a later delete of the same row from the
    /// same bucket value refreshes it (D-bucket-move-out, kizunasync/kizunasync packages/protocol/
    /// decisions at 05bc51f1: "Tombstones are keyed by (table, pk, bucket value)"; the SQL pack
    /// upserts it). The reference kept every delete's until `accord explore` found a bootstrap
    /// delivering the stale one beside the fresh one (issue 39).
    func add(_ tombstone: StoredTombstone) throws(ReferenceServerError) {
        try db.run(
            "DELETE FROM kz_tombstones WHERE tbl = ?1 AND pk = ?2 AND bucket IS ?3",
            [.text(tombstone.table), .text(tombstone.pk), tombstone.bucket.map { .text(StoredJSON.text($0)) } ?? .null])
        try db.run(
            "INSERT INTO kz_tombstones(seq, tbl, pk, deleted_at, bucket, actor) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
            [
                .integer(tombstone.seq), .text(tombstone.table), .text(tombstone.pk), .text(tombstone.deletedAt),
                tombstone.bucket.map { .text(StoredJSON.text($0)) } ?? .null, .text(tombstone.actor),
            ])
    }

    /// Reaps every tombstone; the horizon rises to the highest reaped seq.
    func reap() throws(ReferenceServerError) {
        let highest = try db.query("SELECT MAX(seq) FROM kz_tombstones") { $0.isNull(0) ? nil : $0.integer(0) }.first ?? nil
        if let highest, highest > (try meta(.reapHorizon)) { try setMeta(.reapHorizon, highest) }
        try db.run("DELETE FROM kz_tombstones")
    }

    static func tombstone(_ statement: SQLiteStatement, table: String, pk: String, offset: Int32) throws(ReferenceServerError)
        -> StoredTombstone
    {
        let bucket = try statement.text(offset + 2).map { (text) throws(ReferenceServerError) in try StoredJSON.value(text) }
        return StoredTombstone(
            table: table, pk: pk, seq: statement.integer(offset), deletedAt: statement.text(offset + 1) ?? "", bucket: bucket,
            actor: statement.text(offset + 3) ?? "")
    }

    // MARK: the stream

    /// Rows and tombstones of `tables` with seq above `after` or in `holes`, at most `upTo`, in
    /// (seq, table, pk) order; at most `limit` of them.
    func stream(tables: [String], after: Int64, holes: [Int64], upTo: Int64, limit: Int) throws(ReferenceServerError)
        -> [StreamEntry]
    {
        var entries: [StreamEntry] = []
        for table in Set(tables).sorted() {
            let holeList = holes.map(String.init).joined(separator: ",")
            // Without holes the filter is a plain range, so SQLite seeks the (tbl, seq) index
            // instead of scanning the table; an OR with the hole list would defeat the index.
            let filter =
                holes.isEmpty
                ? "tbl = ?1 AND seq > ?2 AND seq <= ?3 AND ?4 IS NOT NULL"
                : "tbl = ?1 AND seq <= ?3 AND (seq > ?2 OR seq IN (SELECT value FROM json_each(?4)))"
            let values: [SQLiteValue] = [.text(table), .integer(after), .integer(upTo), .text("[\(holeList)]"), .integer(Int64(limit))]
            entries += try db.query("SELECT pk, seq, data FROM kz_rows WHERE \(filter) ORDER BY seq LIMIT ?5", values) {
                (statement) throws(ReferenceServerError) in
                .row(
                    StoredRow(
                        table: table, pk: statement.text(0) ?? "", seq: statement.integer(1),
                        data: try StoredJSON.object(statement.text(2) ?? "{}")))
            }
            entries += try db.query(
                "SELECT pk, seq, deleted_at, bucket, actor FROM kz_tombstones WHERE \(filter) ORDER BY seq LIMIT ?5", values
            ) { (statement) throws(ReferenceServerError) in
                .tombstone(try Self.tombstone(statement, table: table, pk: statement.text(0) ?? "", offset: 1))
            }
        }
        entries.sort { ($0.seq, $0.table) < ($1.seq, $1.table) }
        return Array(entries.prefix(limit))
    }
}
