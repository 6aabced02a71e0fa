/// A failure to talk to PostgreSQL: the database could not be reached, a statement failed (with
/// its SQLSTATE and PostgreSQL's own message fields), or the database is not one the target may
/// reset. A statement failure inside an RPC is not this error: it is mapped to a PostgREST reply.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable {
        case connect
        case statement
        case notPrepared
        case config
    }

    private let code: Code
    /// What happened, with no password in it.
    public let detail: String
    /// The SQLSTATE of a failed statement.
    public let sqlState: String?
    /// PostgreSQL's primary message, detail and hint of a failed statement.
    public let fields: (message: String, detail: String?, hint: String?)?

    private init(_ code: Code, _ detail: String, sqlState: String? = nil, fields: (String, String?, String?)? = nil) {
        self.code = code
        self.detail = detail
        self.sqlState = sqlState
        self.fields = fields
    }

    /// The database cannot be reached or refused the connection.
    static func connect(_ detail: String) -> PostgresError { PostgresError(.connect, detail) }

    /// A statement failed.
    static func statement(sqlState: String, message: String, detail: String?, hint: String?, context: String) -> PostgresError {
        PostgresError(
            .statement, "\(context): \(sqlState) \(message)\(detail.map { " (\($0))" } ?? "")", sqlState: sqlState,
            fields: (message, detail, hint))
    }

    /// The database was not prepared for the target, which empties tables at every seed.
    static func notPrepared(_ detail: String) -> PostgresError { PostgresError(.notPrepared, detail) }

    /// A target configuration file that breaks its grammar.
    static func config(_ detail: String) -> PostgresError { PostgresError(.config, detail) }

    /// True when the database could not be reached.
    public var isConnectionFailure: Bool { code == .connect }

    /// The detail.
    public var description: String { detail }
}
