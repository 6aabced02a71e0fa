import CSQLite

/// A value bound to, or read from, a SQLite statement.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text.
    case text(String)
}

/// A prepared statement owned by its connection's cache; the row readers of a query see the
/// current row through its column accessors.
public final class SQLiteStatement<Failure: SQLiteFailure> {
    private let raw: OpaquePointer
    private let sql: String
    private unowned let connection: SQLiteConnection<Failure>
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    init(_ raw: OpaquePointer, sql: String, connection: SQLiteConnection<Failure>) {
        self.raw = raw
        self.sql = sql
        self.connection = connection
    }

    func finalize() { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    /// Binds positional parameters 1...n.
    public func bind(_ values: [SQLiteValue]) throws(Failure) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(raw, index)
            case .integer(let number): status = sqlite3_bind_int64(raw, index, number)
            case .text(let text): status = sqlite3_bind_text(raw, index, text, -1, Self.transient)
            }
            if status != SQLITE_OK { throw Failure.failed("bind \(index): \(connection.errorMessage)") }
        }
    }

    /// Advances; true while a row is available.
    /// - Returns: whether a row is available.
    public func step() throws(Failure) -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw Failure.stepFailed(connection.errorMessage, sql: sql)
        }
    }

    /// The integer in column `index` (0-based).
    /// - Returns: its integer value.
    public func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(raw, index) }

    /// The text in column `index`, or nil for NULL.
    /// - Returns: its text.
    public func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(raw, index) != SQLITE_NULL, let pointer = sqlite3_column_text(raw, index) else { return nil }
        return String(cString: pointer)
    }

    /// True when column `index` is NULL.
    /// - Returns: whether it is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_NULL }
}
