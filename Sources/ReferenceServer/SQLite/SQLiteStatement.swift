import CSQLite

/// A value bound to, or read from, a SQLite statement.
enum SQLiteValue {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text.
    case text(String)
}

/// A prepared statement owned by its connection's cache.
final class SQLiteStatement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    func finalize() { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    /// Binds positional parameters 1...n.
    func bind(_ values: [SQLiteValue]) throws(ReferenceServerError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(raw, index)
            case .integer(let number): status = sqlite3_bind_int64(raw, index, number)
            case .text(let text): status = sqlite3_bind_text(raw, index, text, -1, Self.transient)
            }
            if status != SQLITE_OK { throw ReferenceServerError.sql("bind \(index): \(connection.errorMessage)") }
        }
    }

    /// Advances; true while a row is available.
    func step() throws(ReferenceServerError) -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw ReferenceServerError.sql(connection.errorMessage)
        }
    }

    /// The integer in column `index` (0-based).
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(raw, index) }

    /// The text in column `index`, or nil for NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(raw, index) != SQLITE_NULL, let pointer = sqlite3_column_text(raw, index) else { return nil }
        return String(cString: pointer)
    }

    /// True when column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_NULL }
}
