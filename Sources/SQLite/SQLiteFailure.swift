/// How a store's own error type says what SQLite reported, so that one wrapper serves stores
/// with different error vocabularies (the reference server's `ReferenceServerError`, the
/// reference client's `STORE` errors) and every message stays what each store has said.
public protocol SQLiteFailure: Error {
    /// The database could not be opened; `message` is "cannot open <path>: <SQLite's message>".
    static func cannotOpen(_ message: String) -> Self
    /// A statement failed to run, prepare or bind; `message` says which, with SQLite's message.
    static func failed(_ message: String) -> Self
    /// A statement failed while stepping through its rows.
    /// - Parameters:
    ///   - message: SQLite's message.
    ///   - sql: the statement.
    static func stepFailed(_ message: String, sql: String) -> Self
    /// The connection is closed.
    static var closed: Self { get }
}
