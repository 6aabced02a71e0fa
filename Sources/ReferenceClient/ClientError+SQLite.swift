import SQLite

/// The reference client's store connection: the shared SQLite wrapper, every failure a `STORE`
/// error.
typealias SQLiteDatabase = SQLiteConnection<ClientError>
/// A value bound to, or read from, a statement.
typealias SQLValue = SQLiteValue

extension ClientError: SQLiteFailure {
    /// A database that does not open.
    public static func cannotOpen(_ message: String) -> ClientError { ClientError(.store, message) }
    /// A statement that does not run, prepare or bind.
    public static func failed(_ message: String) -> ClientError { ClientError(.store, message) }
    /// A statement that fails while stepping.
    public static func stepFailed(_ message: String, sql: String) -> ClientError { ClientError(.store, "\(message) in: \(sql)") }
    /// A closed connection.
    public static var closed: ClientError { ClientError(.store, "the store is closed") }
}
