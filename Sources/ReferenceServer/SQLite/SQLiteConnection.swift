import CSQLite

/// One SQLite connection with a cache of prepared statements; owned by exactly one actor.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (or creates) a database file, or an in-memory database for nil.
    init(path: String?) throws(ReferenceServerError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw ReferenceServerError.open("cannot open \(path ?? ":memory:"): \(message)")
        }
        handle = db
    }

    deinit {
        for statement in cache.values { statement.finalize() }
        sqlite3_close(handle)
    }

    /// The last error message of the connection.
    var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs statements that take no parameters (DDL, transaction control).
    func execute(_ sql: String) throws(ReferenceServerError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(error)
            throw ReferenceServerError.sql("\(message) in: \(sql)")
        }
    }

    /// A prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(ReferenceServerError) -> SQLiteStatement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &raw, nil) == SQLITE_OK, let raw else {
            throw ReferenceServerError.sql("\(errorMessage) preparing: \(sql)")
        }
        let statement = SQLiteStatement(raw, connection: self)
        cache[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(ReferenceServerError) {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query and maps every row.
    func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteStatement) throws(ReferenceServerError) -> T)
        throws(ReferenceServerError) -> [T]
    {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var results: [T] = []
        while try statement.step() { results.append(try map(statement)) }
        return results
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(ReferenceServerError) -> T) throws(ReferenceServerError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Opens a named savepoint.
    func savepoint(_ name: String) throws(ReferenceServerError) { try execute("SAVEPOINT \(name)") }

    /// Releases (keeps) a savepoint's work.
    func release(_ name: String) throws(ReferenceServerError) { try execute("RELEASE \(name)") }

    /// Undoes a savepoint's work and releases it.
    func rollback(to name: String) throws(ReferenceServerError) {
        try execute("ROLLBACK TO \(name)")
        try execute("RELEASE \(name)")
    }
}
