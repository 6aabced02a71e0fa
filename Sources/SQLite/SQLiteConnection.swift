import CSQLite

/// One SQLite connection with a cache of prepared statements, owned by exactly one actor (the
/// reference server's store and the reference client's store each keep theirs inside an actor,
/// so a connection is never used from two threads). Every failure is the owner's own error type,
/// made through `SQLiteFailure`, so each store keeps its error vocabulary.
public final class SQLiteConnection<Failure: SQLiteFailure> {
    private var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement<Failure>] = [:]

    /// Opens (or creates) a database file, or an in-memory database for nil.
    /// - Parameter path: the file, or nil for `:memory:`.
    /// - Throws: `Failure.cannotOpen` when SQLite cannot open it.
    public init(path: String?) throws(Failure) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw Failure.cannotOpen("cannot open \(path ?? ":memory:"): \(message)")
        }
        handle = db
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the connection; later calls fail with
    /// `Failure.closed`.
    public func close() {
        for statement in cache.values { statement.finalize() }
        cache = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The last error message of the connection.
    var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs statements that take no parameters (DDL, transaction control).
    /// - Parameter sql: the statements.
    /// - Throws: `Failure.failed` with SQLite's message and the SQL.
    public func execute(_ sql: String) throws(Failure) {
        guard let handle else { throw Failure.closed }
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(error)
            throw Failure.failed("\(message) in: \(sql)")
        }
    }

    /// A prepared statement for `sql`, reset and with its bindings cleared.
    /// - Parameter sql: one statement.
    /// - Returns: the statement, prepared once per connection.
    /// - Throws: `Failure.failed` when it does not prepare.
    public func statement(_ sql: String) throws(Failure) -> SQLiteStatement<Failure> {
        guard let handle else { throw Failure.closed }
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &raw, nil) == SQLITE_OK, let raw else {
            throw Failure.failed("\(errorMessage) preparing: \(sql)")
        }
        let statement = SQLiteStatement<Failure>(raw, sql: sql, connection: self)
        cache[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows.
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(Failure) {
        _ = try query(sql, values) { _ in () }
    }

    /// Runs a statement whose rows, if any, are not read.
    /// - Returns: one element per row.
    @discardableResult
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws(Failure) -> [Void] {
        try query(sql, values) { _ in () }
    }

    /// Runs a query and maps every row.
    /// - Parameters:
    ///   - sql: the query.
    ///   - values: its positional parameters.
    ///   - map: reads one row through the statement's column accessors.
    /// - Returns: the mapped rows.
    public func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteStatement<Failure>) throws(Failure) -> T)
        throws(Failure) -> [T]
    {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var results: [T] = []
        while try statement.step() { results.append(try map(statement)) }
        return results
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    /// - Parameter body: the work.
    /// - Returns: what `body` returns.
    public func transaction<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
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
    public func savepoint(_ name: String) throws(Failure) { try execute("SAVEPOINT \(name)") }

    /// Releases (keeps) a savepoint's work.
    public func release(_ name: String) throws(Failure) { try execute("RELEASE \(name)") }

    /// Undoes a savepoint's work and releases it.
    public func rollback(to name: String) throws(Failure) {
        try execute("ROLLBACK TO \(name)")
        try execute("RELEASE \(name)")
    }
}
