import SQLite

/// The reference server's connection and statements: the shared SQLite wrapper, failing with
/// `ReferenceServerError` (`open` for a file that does not open, `sql` for the rest).
typealias SQLiteConnection = SQLite.SQLiteConnection<ReferenceServerError>
/// A prepared statement of the reference server's connection.
typealias SQLiteStatement = SQLite.SQLiteStatement<ReferenceServerError>
/// A value bound to, or read from, a statement.
typealias SQLiteValue = SQLite.SQLiteValue

extension ReferenceServerError: SQLiteFailure {
    /// A database that does not open.
    public static func cannotOpen(_ message: String) -> ReferenceServerError { .open(message) }
    /// A statement that does not run, prepare or bind.
    public static func failed(_ message: String) -> ReferenceServerError { .sql(message) }
    /// A statement that fails while stepping.
    public static func stepFailed(_ message: String, sql: String) -> ReferenceServerError { .sql(message) }
    /// A closed connection.
    public static var closed: ReferenceServerError { .sql("closed") }
}
