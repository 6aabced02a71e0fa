import Corpus
import KizunaWire

/// The client engine's durable local store: replica rows, the outbox, sync state, the journal and events, on one SQLite connection.
public actor ClientStore {
    private let db: SQLiteDatabase
    private let tables: [String: TableConfig]

    /// The durably persisted pull cursor token (`"0"` before the first pull).
    public private(set) var cursor: String = "0"
    /// The highest mutation id the server has applied, the push watermark.
    public private(set) var lastMutationID: String?
    /// The schema version recorded with the replica.
    public private(set) var schemaVersion: Int = 1
    /// Whether RESET_REQUIRED has latched the soft block.
    public private(set) var softBlocked = false
    /// The number of pending outbox entries.
    public private(set) var outboxDepth = 0
    /// The events raised since this store was opened, in order.
    public private(set) var events: [ClientEvent] = []
    /// The rejection journal, oldest first.
    public private(set) var journal: [JournalEntry] = []

    /// A test hook: when set, a write fails after its row change and before its outbox insert.
    var failBetweenRowAndOutbox = false

    private init(db: SQLiteDatabase, tables: [TableConfig]) throws(ClientError) {
        self.db = db
        self.tables = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let state = try db.query("SELECT cursor, last_mutation_id, schema_version, soft_block FROM sync_state WHERE id = 1") {
            ($0.text(0) ?? "0", $0.text(1), Int($0.integer(2)), $0.integer(3) != 0)
        }
        if let first = state.first {
            (cursor, lastMutationID, schemaVersion, softBlocked) = first
        }
        outboxDepth = Int(try db.query("SELECT COUNT(*) FROM outbox") { $0.integer(0) }.first ?? 0)
        let rawJournal = try db.query("SELECT tbl, pk, reason, mutation_id, data FROM journal ORDER BY seq") {
            ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "", $0.text(3), $0.text(4))
        }
        journal = try rawJournal.map { (table, pk, reason, mutationID, data) throws(ClientError) in
            JournalEntry(table: table, pk: pk, reason: reason, mutationID: mutationID, data: try data.map(Self.parse))
        }
    }

    /// Opens (or creates) a store and loads its sync state, outbox depth and journal.
    /// - Parameters:
    ///   - path: the database file, or nil for an in-memory store.
    ///   - tables: the case's synced tables, with key columns and soft-delete columns.
    ///   - schemaVersion: the schema version recorded when the store is created.
    /// - Returns: the open store.
    /// - Throws: `ClientError` with code `STORE` when the database cannot be opened or read.
    public static func open(path: String?, tables: [TableConfig], schemaVersion: Int = 1) throws(ClientError) -> ClientStore {
        let db = try SQLiteDatabase(path: path)
        try db.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS rows (tbl TEXT NOT NULL, pk TEXT NOT NULL, body TEXT,
                shadow INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tbl, pk));
            CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, mutation_id TEXT NOT NULL UNIQUE,
                mutation TEXT NOT NULL, atomic_group TEXT, attempts INTEGER NOT NULL DEFAULT 0, pre_image TEXT);
            CREATE TABLE IF NOT EXISTS sync_state (id INTEGER PRIMARY KEY CHECK (id = 1), cursor TEXT NOT NULL,
                last_mutation_id TEXT, schema_version INTEGER NOT NULL, soft_block INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, pk TEXT NOT NULL,
                reason TEXT NOT NULL, mutation_id TEXT, data TEXT);
            CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, mutation_id TEXT,
                data TEXT);
            DELETE FROM events;
            """)
        try db.query(
            "INSERT OR IGNORE INTO sync_state (id, cursor, schema_version) VALUES (1, '0', ?)", [.integer(Int64(schemaVersion))])
        return try ClientStore(db: db, tables: tables)
    }

    /// Closes the connection; every later call fails with `STORE`.
    public func close() { db.close() }

    /// Applies a local write to its row and appends its outbox entry, both in one SQLite transaction.
    /// - Parameters:
    ///   - write: the local write; its mutation id is queued as given.
    ///   - atomicGroup: the atomic group label, or nil for an ordinary entry.
    /// - Returns: the outbox depth after the write.
    /// - Throws: `ClientError` with `UNKNOWN_TABLE`, `SOFT_DELETE_VIOLATION`, `LOCAL_CONSTRAINT` or `STORE`;
    ///   a refused write leaves rows and outbox untouched.
    @discardableResult
    public func write(_ write: LocalWrite, atomicGroup: String? = nil) throws(ClientError) -> Int {
        guard let config = tables[write.table] else {
            throw ClientError(.unknownTable, "table \"\(write.table)\" is not in the configuration")
        }
        if write.op == .delete, let column = config.softDeleteColumn {
            throw ClientError(.softDeleteViolation, "delete refused on \(write.table): set \(column) instead")
        }
        if let atomicGroup, atomicGroup.isEmpty { throw ClientError(.localConstraint, "an atomic group label is non-empty") }
        try Self.validateShape(write, keyColumns: config.keyColumns ?? ["id"])
        let mutation = Mutation(
            mutationID: write.mutationID, table: write.table, pk: write.pk, op: write.op, columns: write.columns,
            precondition: write.precondition, transforms: write.transforms)
        try db.transaction { () throws(ClientError) in
            let queued = try db.query("SELECT 1 FROM outbox WHERE mutation_id = ?", [.text(write.mutationID)]) { _ in true }
            if !queued.isEmpty { throw ClientError(.localConstraint, "mutation id \(write.mutationID) is already queued") }
            let current = try readRow(table: write.table, pk: write.pk)
            let next = try Self.apply(write, to: current.body, shadowed: current.shadow)
            try db.query(
                """
                INSERT INTO rows (tbl, pk, body, shadow) VALUES (?, ?, ?, ?)
                ON CONFLICT (tbl, pk) DO UPDATE SET body = excluded.body, shadow = excluded.shadow
                """,
                [
                    .text(write.table), .text(write.pk), next.map { .text(CanonicalJSON.compact(.object($0))) } ?? .null,
                    .integer(current.shadow && next == nil ? 1 : 0),
                ])
            if failBetweenRowAndOutbox { throw ClientError(.store, "injected failure between the row write and the outbox insert") }
            try db.query(
                "INSERT INTO outbox (mutation_id, mutation, atomic_group, pre_image) VALUES (?, ?, ?, ?)",
                [
                    .text(write.mutationID), .text(CanonicalJSON.compact(mutation.json)), atomicGroup.map { .text($0) } ?? .null,
                    current.body.map { .text(CanonicalJSON.compact(.object($0))) } ?? .null,
                ])
            try db.query(
                "INSERT INTO events (code, mutation_id) VALUES ('LOCAL_CHANGED', ?)", [.text(write.mutationID)])
        }
        outboxDepth += 1
        events.append(ClientEvent(code: "LOCAL_CHANGED", mutationID: write.mutationID, data: nil))
        return outboxDepth
    }

    /// Every pending outbox entry in issue order.
    /// - Returns: the entries, oldest first.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the outbox cannot be read.
    public func outbox() throws(ClientError) -> [OutboxEntry] {
        try entries(limit: nil)
    }

    /// The head of the outbox that one push sends: the whole consecutive run of one atomic group, or up to `maxEntries` ordinary entries.
    /// - Parameter maxEntries: the most ordinary entries to take (an atomic run is never split).
    /// - Returns: the head entries in issue order; empty when the outbox is empty.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the outbox cannot be read.
    public func head(maxEntries: Int = 500) throws(ClientError) -> [OutboxEntry] {
        guard let first = try entries(limit: 1).first else { return [] }
        if let group = first.atomicGroup {
            // The run ends at the first entry with another label (or none).
            let end =
                try db.query(
                    "SELECT MIN(seq) FROM outbox WHERE seq > ? AND (atomic_group IS NULL OR atomic_group <> ?)",
                    [.integer(first.sequence), .text(group)]
                ) { $0.text(0).flatMap { Int64($0) } }.first ?? nil
            return try entries(limit: nil, before: end)
        }
        let end =
            try db.query("SELECT MIN(seq) FROM outbox WHERE atomic_group IS NOT NULL") { $0.text(0).flatMap { Int64($0) } }
            .first ?? nil
        return try entries(limit: max(maxEntries, 1), before: end)
    }

    private func entries(limit: Int?, before end: Int64? = nil) throws(ClientError) -> [OutboxEntry] {
        var sql = "SELECT seq, mutation, atomic_group, attempts FROM outbox"
        var values: [SQLValue] = []
        if let end {
            sql += " WHERE seq < ?"
            values.append(.integer(end))
        }
        sql += " ORDER BY seq"
        if let limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(limit)))
        }
        let raw = try db.query(sql, values) { ($0.integer(0), $0.text(1) ?? "", $0.text(2), Int($0.integer(3))) }
        return try raw.map { (sequence, text, group, attempts) throws(ClientError) in
            let json = try Self.parse(text)
            let mutation: Mutation
            do {
                mutation = try Mutation(json: json, at: .root, malformed: .json)
            } catch {
                throw ClientError(.json, "outbox entry \(sequence) is not a mutation: \(error)")
            }
            return OutboxEntry(sequence: sequence, mutation: mutation, atomicGroup: group, attempts: attempts)
        }
    }

    /// The locally readable row, or nil when it is absent (never present, deleted or shadowed).
    /// - Parameters:
    ///   - table: the table.
    ///   - pk: the row key.
    /// - Returns: the row's columns, or nil.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the row cannot be read.
    public func row(table: String, pk: String) throws(ClientError) -> JSONObject? {
        try readRow(table: table, pk: pk).body
    }

    /// Every locally readable row of a table, by key.
    /// - Parameter table: the table.
    /// - Returns: the rows by key.
    /// - Throws: `ClientError` with `UNKNOWN_TABLE` for a table outside the configuration, `STORE` or `JSON`.
    public func rows(table: String) throws(ClientError) -> [String: JSONObject] {
        guard tables[table] != nil else { throw ClientError(.unknownTable, "table \"\(table)\" is not in the configuration") }
        let raw = try db.query("SELECT pk, body FROM rows WHERE tbl = ? AND body IS NOT NULL", [.text(table)]) {
            ($0.text(0) ?? "", $0.text(1) ?? "{}")
        }
        var result: [String: JSONObject] = [:]
        for (pk, text) in raw { result[pk] = try Self.object(text) }
        return result
    }

    /// Whether a row carries the no-resurrection shadow.
    /// - Parameters:
    ///   - table: the table.
    ///   - pk: the row key.
    /// - Returns: true when the row is shadowed.
    /// - Throws: `ClientError` with `STORE` when the row cannot be read.
    public func isShadowed(table: String, pk: String) throws(ClientError) -> Bool {
        try readRow(table: table, pk: pk).shadow
    }

    /// Persists the pull cursor token.
    /// - Parameter token: the new cursor token text.
    /// - Throws: `ClientError` with `STORE` when it cannot be written.
    public func setCursor(_ token: String) throws(ClientError) {
        try db.query("UPDATE sync_state SET cursor = ? WHERE id = 1", [.text(token)])
        cursor = token
    }

    private func readRow(table: String, pk: String) throws(ClientError) -> (body: JSONObject?, shadow: Bool) {
        let raw = try db.query("SELECT body, shadow FROM rows WHERE tbl = ? AND pk = ?", [.text(table), .text(pk)]) {
            ($0.text(0), $0.integer(1) != 0)
        }
        guard let (text, shadow) = raw.first else { return (nil, false) }
        return (try text.map(Self.object), shadow)
    }

    private static func parse(_ text: String) throws(ClientError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw ClientError(.json, "stored JSON does not parse: \(error)")
        }
    }

    private static func object(_ text: String) throws(ClientError) -> JSONObject {
        guard let object = try parse(text).objectValue else { throw ClientError(.json, "a stored row is not an object") }
        return object
    }
}

extension ClientStore {
    /// Turns the test-only failure between a write's row change and its outbox insert on or off.
    func setFailureInjection(_ on: Bool) { failBetweenRowAndOutbox = on }
}
