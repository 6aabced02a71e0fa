import SQLite

/// A refusal or failure of the client engine, carrying one engine error code of spec/engine-errors.json.
public struct ClientError: Error, CustomStringConvertible, Equatable {
    /// The engine error codes this engine raises itself (wire-contract codes travel as `WireError`).
    enum Code: String, Sendable {
        case softDeleteViolation = "SOFT_DELETE_VIOLATION"
        case unknownTable = "UNKNOWN_TABLE"
        case localConstraint = "LOCAL_CONSTRAINT"
        case localUnsupported = "LOCAL_UNSUPPORTED"
        case store = "STORE"
        case storeUnavailable = "STORE_UNAVAILABLE"
        case json = "JSON"
        case remote = "REMOTE"
        case permanentTransport = "PERMANENT_TRANSPORT"
        case configInvalid = "CONFIG_INVALID"
        case bucketUnset = "BUCKET_UNSET"
    }

    private let kind: Code

    /// A human-readable explanation of the failure.
    public let message: String

    init(_ kind: Code, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The engine error code, e.g. `SOFT_DELETE_VIOLATION`.
    public var code: String { kind.rawValue }

    /// The code followed by the message.
    public var description: String { "\(code): \(message)" }
}

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
