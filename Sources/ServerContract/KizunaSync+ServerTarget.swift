import Corpus
import JSON
import KizunaWire

extension KizunaSync {
    /// A server under test, as the server lane drives it: the fixture operations of
    /// docs/server-contract.md (seed, set step, apply a server change, commit a held transaction)
    /// and the two RPCs. The embedded reference server and a server reached over HTTP both conform.
    public protocol ServerTarget: Sendable {
        /// What this server can steer (its clock, when writes take their seqs).
        /// - Returns: the capabilities.
        /// - Throws: `TargetError` when the server cannot be asked.
        func capabilities() async throws(TargetError) -> TargetCapabilities

        /// Resets the server to an empty state with a case's configuration, first seq and history.
        /// - Returns: where the server's numbering stands: its base and the seq of each history change.
        /// - Throws: `TargetError` when the server cannot be seeded.
        func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt

        /// Sets the logical clock: server-assigned times become `2026-01-01T00:00:<n>.000Z`. A
        /// wall-clock target takes the call and keeps its own clock.
        /// - Parameter step: the step number `n`.
        /// - Throws: `TargetError` when the server refuses.
        func setStep(_ step: Int) async throws(TargetError)

        /// Applies another actor's change, bypassing bucket visibility; with `transaction`, the
        /// change stamps its seq now but stays invisible until `commit(transaction:)`.
        /// - Parameters:
        ///   - change: the change.
        ///   - transaction: the held transaction's name, or nil to commit at once.
        /// - Throws: `TargetError` when the server refuses.
        func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError)

        /// Commits a held transaction.
        /// - Throws: `TargetError` when no such transaction is open.
        func commit(transaction: String) async throws(TargetError)

        /// Calls `rpc/pull` as a user and session.
        /// - Parameters:
        ///   - body: the request body.
        ///   - identity: the caller (JWT `sub` and `session_id`).
        /// - Returns: the HTTP status and body.
        /// - Throws: `TargetError` when the call itself fails (not for a PostgREST error reply).
        func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply

        /// Calls `rpc/push` as a user and session.
        /// - Returns: the HTTP status and body.
        /// - Throws: `TargetError` when the call itself fails.
        func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply
    }
}

/// The caller of an RPC: the JWT's `sub` (user) and `session_id` (client) claims.
public struct Identity: Sendable, Hashable {
    /// The user id.
    public var user: String
    /// The session (client) id, the fallback when a body names no `client_id`.
    public var session: String?

    /// Makes an identity.
    /// - Parameters:
    ///   - user: the user id.
    ///   - session: the session id.
    public init(user: String, session: String?) {
        self.user = user
        self.session = session
    }
}

/// An RPC's answer: the HTTP status and the JSON body (a PostgREST error object on 4xx/5xx).
public struct RPCReply: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: JSONValue

    /// Makes a reply.
    public init(status: Int, body: JSONValue) {
        self.status = status
        self.body = body
    }

    /// A PostgREST-shaped error reply `{code, details, hint, message}`.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - code: the SQLSTATE or PostgREST code, e.g. "22023".
    ///   - message: the message.
    /// - Returns: the reply.
    public static func error(status: Int, code: String, message: String) -> RPCReply {
        RPCReply(status: status, body: PostgRESTSurface.errorBody(code: code, message: message))
    }
}

/// What a server is reset to before a case: its configuration, the first seq to stamp, and
/// history applied before step 1.
public struct Seed: Sendable, Hashable {
    /// The server configuration the case declares.
    public var server: ServerConfig
    /// The first seq the server stamps.
    public var nextSeq: SequenceNumber
    /// Changes applied before step 1 (by another actor, bypassing visibility).
    public var history: [FixtureChange]

    /// Makes a seed.
    /// - Parameters:
    ///   - server: the configuration.
    ///   - nextSeq: the first seq.
    ///   - history: prior changes.
    public init(server: ServerConfig, nextSeq: SequenceNumber = SequenceNumber(1), history: [FixtureChange] = []) {
        self.server = server
        self.nextSeq = nextSeq
        self.history = history
    }
}

/// A server-side change by another actor, or the tombstone reaper.
public enum FixtureChange: Sendable, Hashable {
    /// Writes `columns` of a row (creating it when absent).
    case upsert(table: String, pk: String, columns: JSONObject, actor: String, hlc: String?)
    /// Hard-deletes a row, leaving a tombstone.
    case delete(table: String, pk: String, actor: String)
    /// Reaps every tombstone recorded so far; the reap horizon rises to the highest reaped seq.
    case reap
}

/// A server under test that could not be driven: unreachable, or a fixture operation refused.
public struct TargetError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable { case unreachable, refused, unsupported }
    private let code: Code
    /// What happened.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The target cannot be reached (connection refused, timeout).
    /// - Returns: the error.
    public static func unreachable(_ detail: String) -> TargetError { TargetError(.unreachable, detail) }

    /// The target refused a fixture operation.
    /// - Returns: the error.
    public static func refused(_ detail: String) -> TargetError { TargetError(.refused, detail) }

    /// The target does not support an operation (e.g. held transactions).
    /// - Parameter detail: what is missing.
    /// - Returns: the error.
    public static func unsupported(_ detail: String) -> TargetError { TargetError(.unsupported, detail) }

    /// True when the target lacks the operation (the case is then "unsupported", not failed).
    public var isUnsupported: Bool { code == .unsupported }

    /// True when the target could not be reached at all.
    public var isUnreachable: Bool { code == .unreachable }

    /// The detail, prefixed by the kind.
    public var description: String {
        switch code {
        case .unreachable: "target unreachable: \(detail)"
        case .refused: "target refused: \(detail)"
        case .unsupported: "target does not support: \(detail)"
        }
    }
}

extension KizunaSync {
    /// Makes a fresh, isolated target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any ServerTarget
}
