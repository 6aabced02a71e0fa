import CSQLite

/// A value bound to, or read from, a SQLite statement.
enum SQLValue {
    case null
    case integer(Int64)
    case text(String)
}

/// One SQLite connection owned by exactly one actor; every failure is a `STORE` error.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Opens (or creates) a database file, or an in-memory database for nil.
    init(path: String?) throws(ClientError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw ClientError(.store, "cannot open \(path ?? ":memory:"): \(message)")
        }
        handle = db
    }

    deinit { close() }

    /// Closes the connection; later calls fail with `STORE`.
    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs parameterless SQL (DDL, transaction control).
    func execute(_ sql: String) throws(ClientError) {
        guard let handle else { throw ClientError(.store, "the store is closed") }
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(error)
            throw ClientError(.store, "\(message) in: \(sql)")
        }
    }

    /// Runs a statement and maps every result row; the row reader is given column accessors.
    @discardableResult
    func query<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Row) -> T = { _ in () }) throws(ClientError) -> [T] {
        guard let handle else { throw ClientError(.store, "the store is closed") }
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &raw, nil) == SQLITE_OK, let statement = raw else {
            throw ClientError(.store, "\(errorMessage) preparing: \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            }
            if status != SQLITE_OK { throw ClientError(.store, "bind \(index): \(errorMessage)") }
        }
        var results: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: results.append(map(Row(statement: statement)))
            case SQLITE_DONE: return results
            default: throw ClientError(.store, "\(errorMessage) in: \(sql)")
            }
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(ClientError) -> T) throws(ClientError) -> T {
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

    /// Column accessors for the current result row.
    struct Row {
        let statement: OpaquePointer

        /// The integer in column `index` (0-based).
        func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

        /// Whether column `index` (0-based) is NULL.
        func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

        /// The text in column `index`, or nil for NULL.
        func text(_ index: Int32) -> String? {
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let pointer = sqlite3_column_text(statement, index)
            else { return nil }
            return String(cString: pointer)
        }
    }
}
