import Corpus
import Foundation
import JSON
import KizunaWire

/// The client engine's durable local store: rows (server base and visible body), the outbox, the push in flight,
/// sync state, pull staging and the journal, in one SQLite file; every state change that must be atomic is one transaction.
public actor ClientStore {
    let db: SQLiteDatabase
    let tables: [String: TableConfig]
    let faults: Set<ClientFault>
    let clientID: String
    let clock: @Sendable () -> Date
    /// Called at each kill-matrix seam the store reaches (a driver makes it die there when armed).
    nonisolated let reached: @Sendable (KillHook) -> Void

    /// The durably persisted pull cursor token (the open checkpoint, `"0"` by default, before the first pull).
    public internal(set) var cursor: String = "0"
    /// The push watermark: the last mutation id the server applied, or nil.
    public internal(set) var lastMutationID: String?
    /// The schema version recorded with the replica.
    public private(set) var schemaVersion: Int = 1
    /// Whether RESET_REQUIRED has latched the soft block.
    public internal(set) var softBlocked = false
    /// Whether the next closing pull rehydrates from `"0"` (set by CHECKPOINT_EXPIRED).
    public internal(set) var rehydrating = false
    /// The continuation cursor of a pull transfer in progress, or nil.
    public internal(set) var stagingCursor: String?
    /// The number of pending outbox entries.
    public internal(set) var outboxDepth = 0
    /// The events raised since this store was opened, in order.
    public internal(set) var events: [ClientEvent] = []
    /// The journal, oldest first.
    public internal(set) var journal: [ClientJournalEntry] = []

    /// A test hook: when set, the next write or closing pull fails at its seam (between row and outbox, cursor and rows).
    var failAtSeam = false

    private init(
        db: SQLiteDatabase, tables: [TableConfig], faults: Set<ClientFault>, clientID: String, clock: @escaping @Sendable () -> Date,
        reached: @escaping @Sendable (KillHook) -> Void
    ) throws(ClientError) {
        self.reached = reached
        self.db = db
        self.tables = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.faults = faults
        self.clientID = clientID
        self.clock = clock
        let state = try db.query(
            "SELECT cursor, last_mutation_id, schema_version, soft_block, rehydrating, staging_cursor FROM sync_state WHERE id = 1"
        ) { ($0.text(0) ?? "0", $0.text(1), Int($0.integer(2)), $0.integer(3) != 0, $0.integer(4) != 0, $0.text(5)) }
        if let first = state.first {
            (cursor, lastMutationID, schemaVersion, softBlocked, rehydrating, stagingCursor) = first
        }
        outboxDepth = Int(try db.query("SELECT COUNT(*) FROM outbox") { $0.integer(0) }.first ?? 0)
        let rawJournal = try db.query("SELECT tbl, pk, reason, mutation_id, data FROM journal ORDER BY seq") {
            ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "", $0.text(3), $0.text(4))
        }
        journal = try rawJournal.map { (table, pk, reason, mutationID, data) throws(ClientError) in
            ClientJournalEntry(table: table, pk: pk, reason: reason, mutationID: mutationID, data: try data.map(Self.object))
        }
    }

    /// Opens (or creates) a store and loads its sync state, outbox depth and journal.
    /// - Parameters:
    ///   - path: the database file, or nil for an in-memory store.
    ///   - tables: the case's synced tables, with key columns, conflict modes and soft-delete columns.
    ///   - schemaVersion: the schema version recorded when the store is created.
    ///   - checkpoint: the cursor a new store starts at; a reopened store keeps its own.
    ///   - clientID: the client identity, the node of stamped origin clocks.
    ///   - userID: the user the store belongs to; a store created under one identity (user and client) refuses to
    ///     open under another (nil: not recorded, not checked).
    ///   - faults: the seeded faults to switch on.
    ///   - clock: the wall clock for origin clocks.
    ///   - reached: called at each kill-matrix seam (`KillHook`) the store reaches; nothing by default.
    /// - Returns: the open store.
    /// - Throws: `ClientError` with code `STORE` when the database cannot be opened or read, `STORE_UNAVAILABLE` when it
    ///   belongs to another identity.
    public static func open(
        path: String?, tables: [TableConfig], schemaVersion: Int = 1, checkpoint: String = "0",
        clientID: String = "00000000-0000-4000-8000-000000000000", userID: String? = nil, faults: Set<ClientFault> = [],
        clock: @escaping @Sendable () -> Date = { Date() }, reached: @escaping @Sendable (KillHook) -> Void = { _ in }
    ) throws(ClientError) -> ClientStore {
        let db = try SQLiteDatabase(path: path)
        try db.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS rows (tbl TEXT NOT NULL, pk TEXT NOT NULL, base TEXT, body TEXT,
                shadow_seq INTEGER, PRIMARY KEY (tbl, pk));
            CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, mutation_id TEXT NOT NULL UNIQUE,
                tbl TEXT NOT NULL, pk TEXT NOT NULL, mutation TEXT NOT NULL, atomic_group TEXT,
                attempts INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS outbox_row ON outbox (tbl, pk, seq);
            CREATE TABLE IF NOT EXISTS sync_state (id INTEGER PRIMARY KEY CHECK (id = 1), cursor TEXT NOT NULL,
                last_mutation_id TEXT, schema_version INTEGER NOT NULL, soft_block INTEGER NOT NULL DEFAULT 0,
                rehydrating INTEGER NOT NULL DEFAULT 0, staging_cursor TEXT, hlc_ms INTEGER NOT NULL DEFAULT 0,
                hlc_logical INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS staging (ord INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, pk TEXT NOT NULL,
                row TEXT);
            CREATE TABLE IF NOT EXISTS push_in_flight (id INTEGER PRIMARY KEY CHECK (id = 1), first_seq INTEGER NOT NULL,
                last_seq INTEGER NOT NULL, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, pk TEXT NOT NULL,
                reason TEXT NOT NULL, mutation_id TEXT, data TEXT);
            """)
        try db.query(
            "INSERT OR IGNORE INTO sync_state (id, cursor, schema_version) VALUES (1, ?, ?)",
            [.text(checkpoint), .integer(Int64(schemaVersion))])
        if let userID { try claim(db, userID: userID, clientID: clientID, faults: faults) }
        return try ClientStore(db: db, tables: tables, faults: faults, clientID: clientID, clock: clock, reached: reached)
    }

    /// Closes the connection; every later call fails with `STORE`.
    public func close() { db.close() }

    /// The configured tables, by name.
    public var tableNames: [String] { tables.keys.sorted() }

    /// Applies a local write to its row and appends its outbox entry, both in one SQLite transaction.
    /// - Parameters:
    ///   - write: the local write; its mutation id is queued as given.
    ///   - atomicGroup: the atomic group label, or nil for an ordinary entry.
    /// - Returns: the outbox depth after the write.
    /// - Throws: `ClientError` with `UNKNOWN_TABLE`, `SOFT_DELETE_VIOLATION`, `LOCAL_CONSTRAINT` or `STORE`;
    ///   a refused write leaves rows and outbox untouched.
    @discardableResult
    public func write(_ write: LocalWrite, atomicGroup: String? = nil) throws(ClientError) -> Int {
        try self.write(
            Mutation(
                mutationID: write.mutationID, table: write.table, pk: write.pk, op: write.op, columns: write.columns,
                precondition: write.precondition, transforms: write.transforms),
            atomicGroup: atomicGroup)
    }

    /// Applies a local write given in the wire mutation shape (its `hlc` is replaced by the store's own stamp).
    /// - Parameters:
    ///   - write: the mutation; its id is queued as given.
    ///   - atomicGroup: the atomic group label, or nil for an ordinary entry.
    /// - Returns: the outbox depth after the write.
    /// - Throws: `ClientError` with `UNKNOWN_TABLE`, `SOFT_DELETE_VIOLATION`, `LOCAL_CONSTRAINT` or `STORE`;
    ///   a refused write leaves rows and outbox untouched.
    @discardableResult
    public func write(_ write: Mutation, atomicGroup: String? = nil) throws(ClientError) -> Int {
        guard let config = tables[write.table] else {
            throw ClientError(.unknownTable, "table \"\(write.table)\" is not in the configuration")
        }
        if write.op == .delete, let column = config.softDeleteColumn {
            throw ClientError(.softDeleteViolation, "delete refused on \(write.table): set \(column) instead")
        }
        if let atomicGroup, atomicGroup.isEmpty { throw ClientError(.localConstraint, "an atomic group label is non-empty") }
        try Self.validateShape(write, keyColumns: config.keyColumns ?? ["id"])
        var mutation = Mutation(
            mutationID: write.mutationID, table: write.table, pk: write.pk, op: write.op, columns: write.columns,
            precondition: write.precondition, transforms: write.transforms)
        if faults.contains(.twoTransactionWrite) {
            mutation = try db.transaction { () throws(ClientError) in try writeRow(mutation, stamp: config.conflictMode == "hlc") }
            reached(.afterLocalWrite)
            try db.transaction { () throws(ClientError) in try writeOutbox(mutation, atomicGroup: atomicGroup) }
        } else {
            do {
                try db.transaction { () throws(ClientError) in
                    let stamped = try writeRow(mutation, stamp: config.conflictMode == "hlc")
                    try writeOutbox(stamped, atomicGroup: atomicGroup)
                }
            } catch  where error.code == ClientError.Code.store.rawValue && faults.contains(.ackFailedWrite) {
                // The seeded fault: the failed commit is swallowed and the write answered as done.
            }
            reached(.afterLocalWrite)
        }
        outboxDepth += 1
        raise("LOCAL_CHANGED", mutationID: write.mutationID)
        raiseQueueDepth()
        return outboxDepth
    }

    /// Checks a write against the stored row, stamps its origin clock, and stores the row's new body (inside a transaction).
    private func writeRow(_ mutation: Mutation, stamp: Bool) throws(ClientError) -> Mutation {
        var mutation = mutation
        let queued = try db.query("SELECT 1 FROM outbox WHERE mutation_id = ?", [.text(mutation.mutationID)]) { _ in true }
        if !queued.isEmpty { throw ClientError(.localConstraint, "mutation id \(mutation.mutationID) is already queued") }
        let current = try readRow(table: mutation.table, pk: mutation.pk)
        if mutation.op == .insert && current.body != nil {
            throw ClientError(.localConstraint, "a row with key \(mutation.pk) already exists in \(mutation.table)")
        }
        if stamp { mutation.hlc = try stampClock() }
        let next = replay(mutation, over: current.body, suppressed: false)
        try storeRow(table: mutation.table, pk: mutation.pk, base: current.base, body: next, shadow: current.shadow)
        return mutation
    }

    /// Appends the outbox entry of a write (inside a transaction); the failure hook fires just before it.
    private func writeOutbox(_ mutation: Mutation, atomicGroup: String?) throws(ClientError) {
        if failAtSeam { throw ClientError(.store, "injected failure between the row write and the outbox insert") }
        try db.query(
            "INSERT INTO outbox (mutation_id, tbl, pk, mutation, atomic_group) VALUES (?, ?, ?, ?, ?)",
            [
                .text(mutation.mutationID), .text(mutation.table), .text(mutation.pk), .text(CanonicalJSON.compact(mutation.json)),
                atomicGroup.map { .text($0) } ?? .null,
            ])
    }

    /// Raises QUEUE_DEPTH with the outbox depth now (after a write, or a push that changed it).
    func raiseQueueDepth() { raise("QUEUE_DEPTH", data: ["depth": .number(JSONNumber(outboxDepth))]) }

    /// Records an event raised since open.
    func raise(_ code: String, mutationID: String? = nil, data: JSONObject? = nil) {
        events.append(ClientEvent(code: code, mutationID: mutationID, data: data))
    }

    /// Reads the origin clock state, advances it monotonically past the wall clock, and stores it (inside a transaction).
    private func stampClock() throws(ClientError) -> String {
        let state = try db.query("SELECT hlc_ms, hlc_logical FROM sync_state WHERE id = 1") { ($0.integer(0), $0.integer(1)) }
        let (lastMS, lastLogical) = state.first ?? (0, 0)
        let now = Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
        let (ms, logical) = now > lastMS ? (now, Int64(0)) : (lastMS, lastLogical + 1)
        try db.query("UPDATE sync_state SET hlc_ms = ?, hlc_logical = ? WHERE id = 1", [.integer(ms), .integer(logical)])
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        let iso = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        return "\(iso)|\(logical)|\(clientID)"
    }

    static func parse(_ text: String) throws(ClientError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw ClientError(.json, "stored JSON does not parse: \(error)")
        }
    }

    static func object(_ text: String) throws(ClientError) -> JSONObject {
        guard let object = try parse(text).objectValue else { throw ClientError(.json, "a stored value is not an object") }
        return object
    }

    static func text(_ row: JSONObject?) -> SQLValue { row.map { .text(CanonicalJSON.compact(.object($0))) } ?? .null }
}

extension ClientStore {
    /// Turns the test-only failure at a write's or closing pull's seam on or off.
    func setFailureInjection(_ on: Bool) { failAtSeam = on }
}

extension ClientStore {
    /// Records the identity a new store belongs to, or checks that a reopened store is opened under it: the local rows,
    /// outbox, cursor and watermark are one recovery unit of one user and client, and another identity must never send
    /// (or see) them. Another identity is refused with `STORE_UNAVAILABLE`; the store stays as it was, so reopening it
    /// under its own identity finds everything (docs/kill-matrix.md, "identity-change").
    /// - Parameters:
    ///   - db: the open database.
    ///   - userID: the user opening the store.
    ///   - clientID: the client opening the store.
    ///   - faults: with `share-store-across-identities` the check is skipped.
    /// - Throws: `ClientError` with `STORE_UNAVAILABLE` for another identity, `STORE` when the record cannot be read.
    static func claim(_ db: SQLiteDatabase, userID: String, clientID: String, faults: Set<ClientFault>) throws(ClientError) {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS store_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_id TEXT NOT NULL, client_id TEXT NOT NULL);"
        )
        try db.query("INSERT OR IGNORE INTO store_identity (id, user_id, client_id) VALUES (1, ?, ?)", [.text(userID), .text(clientID)])
        let owner = try db.query("SELECT user_id, client_id FROM store_identity WHERE id = 1") { ($0.text(0) ?? "", $0.text(1) ?? "") }
        guard let (user, client) = owner.first, user != userID || client != clientID else { return }
        if faults.contains(.shareStoreAcrossIdentities) { return }
        db.close()
        throw ClientError(
            .storeUnavailable,
            "the store belongs to user \(user) and client \(client); it is not opened as user \(userID) and client \(clientID)")
    }
}
