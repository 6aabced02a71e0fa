internal import CPostgres
import Foundation

/// One libpq connection. An actor, because a connection runs one statement at a time; each
/// blocking libpq call runs on its own thread, never on the concurrency pool, so a statement that
/// waits on a lock another connection holds (a held transaction) never starves the process.
actor PostgresConnection {
    private let handle: ConnectionHandle

    /// Connects.
    /// - Parameters:
    ///   - url: a libpq connection URI (`postgres://user@host:port/db`) or key/value string.
    ///   - shown: the URL as errors show it, with any password removed.
    /// - Throws: `PostgresError` when the database cannot be reached.
    init(url: String, shown: String) async throws(PostgresError) {
        let result = await Self.blocking { () -> Result<ConnectionHandle, PostgresError> in
            Result { () throws(PostgresError) in try ConnectionHandle(url: url, shown: shown) }
        }
        handle = try result.get()
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …; nil is SQL NULL), or a script of
    /// several statements when `parameters` is empty.
    /// - Parameters:
    ///   - sql: the statement.
    ///   - parameters: its parameters.
    ///   - context: what the statement is for, for errors ("seed", "rpc/pull").
    /// - Returns: its rows.
    /// - Throws: `PostgresError` when the statement fails or the connection is lost.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = [], context: String) async throws(PostgresError) -> QueryResult {
        let handle = self.handle
        let result = await Self.blocking { () -> Result<QueryResult, PostgresError> in
            Result { () throws(PostgresError) in try handle.execute(sql, parameters, context: context) }
        }
        return try result.get()
    }

    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}

/// The libpq connection pointer, owned by one `PostgresConnection` and used only through it.
final class ConnectionHandle: @unchecked Sendable {
    private let connection: OpaquePointer
    /// Serializes statements: the actor hops off while a statement runs.
    private let busy = NSLock()

    init(url: String, shown: String) throws(PostgresError) {
        guard let connection = PQconnectdb(url) else { throw .connect("\(shown): libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw .connect("\(shown): \(message)")
        }
        // libpq prints NOTICE and WARNING lines to stderr by default; a conformance run's output is
        // its report, so they are dropped.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    func execute(_ sql: String, _ parameters: [String?], context: String) throws(PostgresError) -> QueryResult {
        busy.lock()
        defer { busy.unlock() }
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(connection, sql)
        } else {
            let copies = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for copy in copies { free(copy) } }
            let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
            result = pointers.withUnsafeBufferPointer { buffer in
                PQexecParams(connection, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
            }
        }
        guard let result else {
            throw .connect("\(context): \(String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return QueryResult(columns: [], rows: [])
        case PGRES_TUPLES_OK:
            let fields = PQnfields(result)
            let columns = (0..<fields).map { String(cString: PQfname(result, $0)) }
            var rows: [[String?]] = []
            for row in 0..<PQntuples(result) {
                rows.append(
                    (0..<fields).map { column in
                        PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                    })
            }
            return QueryResult(columns: columns, rows: rows)
        default:
            func field(_ code: UInt8) -> String? {
                guard let text = PQresultErrorField(result, Int32(code)) else { return nil }
                return String(cString: text)
            }
            guard let state = field(UInt8(ascii: "C")) else {
                throw .connect(
                    "\(context): \(String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            throw .statement(
                sqlState: state, message: field(UInt8(ascii: "M")) ?? "", detail: field(UInt8(ascii: "D")),
                hint: field(UInt8(ascii: "H")), context: context)
        }
    }
}
