import Corpus
import KizunaWire
import PowerSyncWire

/// The operations of the driver protocol, in the order a session uses them.
public enum DriverOp: String, Sendable, Hashable, CaseIterable {
    /// Version and capability handshake; always the first request.
    case hello
    /// Opens the engine's store for one case.
    case open
    /// One local write and its outbox entry.
    case write
    /// One pushOnce.
    case push
    /// Pulls until the checkpoint closes, a signal arrives, or `max_pages` pages were read.
    case pull
    /// Reports rows, cursor, outbox depth, events and journal.
    case state
    /// Closes the engine and ends the session.
    case close
    /// PowerSync (§11): open the local database and connect.
    case attach
    /// PowerSync: a local write and its upload queue entry.
    case localWrite = "local-write"
    /// PowerSync: upload the queue.
    case upload
    /// PowerSync: read one sync stream until the service ends it.
    case sync
    /// PowerSync: request a checkpoint.
    case requestCheckpoint = "request-checkpoint"
    /// PowerSync: wait for a request to sync, with a timeout.
    case waitForSync = "wait-for-sync"
    /// PowerSync: disconnect from the service.
    case disconnect
    /// PowerSync: connect again.
    case reconnect
    /// PowerSync: clear the local database.
    case localReset = "local-reset"
    /// PowerSync: rows, pending uploads, the last applied checkpoint and the requests.
    case clientState = "client-state"

    /// The profile whose drivers take this op; nil for `hello` and `close`, which every driver takes.
    public var profile: CorpusProfile? {
        switch self {
        case .hello, .close: nil
        case .open, .write, .push, .pull, .state: .kizunaSync
        case .attach, .localWrite, .upload, .sync, .requestCheckpoint, .waitForSync, .disconnect, .reconnect, .localReset, .clientState:
            .powerSync
        }
    }
}

/// The open request: where the store lives, how to reach the server, and the case context.
public struct OpenRequest: Sendable, Hashable {
    /// The path of the engine's local store (a file or directory the driver owns).
    public var store: String
    /// The server's base URL, e.g. "http://127.0.0.1:54321"; RPCs go to `<base_url>/rest/v1/rpc/...`.
    public var baseURL: String
    /// The `apikey` header value.
    public var apikey: String
    /// The bearer JWT for the `Authorization` header.
    public var jwt: String
    /// The client identity (a uuid).
    public var clientID: String
    /// The user identity (a uuid); the bucket value of every table.
    public var userID: String
    /// The client's schema version (at least 1).
    public var schemaVersion: Int
    /// The case's server configuration: the synced tables and their options.
    public var server: ServerConfig
    /// The cursor the store starts at when it is new; nil means "0".
    public var checkpoint: String?
    /// The page size to send as a pull request's `limit`; nil means send no limit.
    public var pullLimit: Int?

    /// Makes an open request.
    /// - Parameters:
    ///   - store: the store path.
    ///   - baseURL: the server's base URL.
    ///   - apikey: the apikey header value.
    ///   - jwt: the bearer token.
    ///   - clientID: the client uuid.
    ///   - userID: the user uuid.
    ///   - schemaVersion: the schema version.
    ///   - server: the case's server configuration.
    ///   - checkpoint: the starting cursor of a new store.
    ///   - pullLimit: the pull page size.
    public init(
        store: String, baseURL: String, apikey: String, jwt: String, clientID: String, userID: String, schemaVersion: Int,
        server: ServerConfig, checkpoint: String? = nil, pullLimit: Int? = nil
    ) {
        self.store = store
        self.baseURL = baseURL
        self.apikey = apikey
        self.jwt = jwt
        self.clientID = clientID
        self.userID = userID
        self.schemaVersion = schemaVersion
        self.server = server
        self.checkpoint = checkpoint
        self.pullLimit = pullLimit
    }

    /// Makes an open request for a transcript's context.
    /// - Parameters:
    ///   - context: the case context (identities, schema version, server config).
    ///   - store: the store path.
    ///   - baseURL: the server's base URL.
    ///   - apikey: the apikey header value.
    ///   - jwt: the bearer token.
    ///   - checkpoint: the starting cursor of a new store.
    ///   - pullLimit: the pull page size.
    public init(
        context: CaseContext, store: String, baseURL: String, apikey: String, jwt: String, checkpoint: String? = nil,
        pullLimit: Int? = nil
    ) {
        self.init(
            store: store, baseURL: baseURL, apikey: apikey, jwt: jwt, clientID: context.clientID, userID: context.userID,
            schemaVersion: context.schemaVersion, server: context.server, checkpoint: checkpoint, pullLimit: pullLimit)
    }
}

/// The write request: one local write with the runner's mutation id, and its atomic group.
public struct WriteRequest: Sendable, Hashable {
    /// The write, in the wire mutation shape (no `hlc`, no `base_hint`).
    public var mutation: Mutation
    /// The atomic group: consecutive writes with the same group are pushed as one atomic batch.
    public var atomicGroup: String?

    /// Makes a write request.
    /// - Parameters:
    ///   - mutation: the write.
    ///   - atomicGroup: the atomic group, if any.
    public init(mutation: Mutation, atomicGroup: String? = nil) {
        self.mutation = mutation
        self.atomicGroup = atomicGroup
    }

    /// Makes a write request from a transcript's local step (its `expect_error` stays with the runner).
    /// - Parameters:
    ///   - write: the local step.
    ///   - atomicGroup: the atomic group, if any.
    public init(_ write: LocalWrite, atomicGroup: String? = nil) {
        self.mutation = Mutation(
            mutationID: write.mutationID, table: write.table, pk: write.pk, op: write.op, columns: write.columns,
            precondition: write.precondition, transforms: write.transforms)
        self.atomicGroup = atomicGroup
    }
}

/// The pull request's options.
public struct PullOptions: Sendable, Hashable {
    /// Stop after this many pages even when the checkpoint is still open; nil means no limit.
    public var maxPages: Int?

    /// Makes pull options.
    /// - Parameter maxPages: the page limit, at least 1; nil pulls until the checkpoint closes.
    public init(maxPages: Int? = nil) { self.maxPages = maxPages }
}

/// The state request's options.
public struct StateOptions: Sendable, Hashable {
    /// The tables whose rows to report; nil means every configured table.
    public var tables: [String]?

    /// Makes state options.
    /// - Parameter tables: the tables, or nil for all.
    public init(tables: [String]? = nil) { self.tables = tables }
}

/// One request line from the runner: an `id` echoed by the response, and the operation.
public struct DriverRequest: Sendable, Hashable {
    /// The protocol version this library speaks.
    public static let protocolVersion = "accord-driver/1"

    /// An operation with its payload.
    public enum Body: Sendable, Hashable {
        /// The handshake, naming the protocol version the runner speaks.
        case hello(protocolVersion: String)
        /// Open the store.
        case open(OpenRequest)
        /// A local write.
        case write(WriteRequest)
        /// One pushOnce.
        case push
        /// Pull.
        case pull(PullOptions)
        /// Report state.
        case state(StateOptions)
        /// Close and end the session.
        case close
        /// A PowerSync op (§11).
        case powerSync(PowerSync.OpBody)

        /// The operation.
        public var op: DriverOp {
            switch self {
            case .hello: .hello
            case .open: .open
            case .write: .write
            case .push: .push
            case .pull: .pull
            case .state: .state
            case .close: .close
            case .powerSync(let body): body.op
            }
        }
    }

    /// The request id, a non-negative integer the response echoes.
    public var id: Int
    /// The operation and payload.
    public var body: Body

    /// Makes a request.
    public init(id: Int, _ body: Body) {
        self.id = id
        self.body = body
    }

    /// A hello naming this library's protocol version.
    /// - Returns: the request.
    public static func hello(id: Int) -> DriverRequest { DriverRequest(id: id, .hello(protocolVersion: protocolVersion)) }

    /// An open request.
    /// - Parameters:
    ///   - id: the request id.
    ///   - request: the open payload.
    /// - Returns: the request.
    public static func open(id: Int, _ request: OpenRequest) -> DriverRequest { DriverRequest(id: id, .open(request)) }

    /// A write request.
    /// - Parameters:
    ///   - id: the request id.
    ///   - request: the write payload.
    /// - Returns: the request.
    public static func write(id: Int, _ request: WriteRequest) -> DriverRequest { DriverRequest(id: id, .write(request)) }

    /// A push request.
    /// - Returns: the request.
    public static func push(id: Int) -> DriverRequest { DriverRequest(id: id, .push) }

    /// A pull request.
    /// - Parameters:
    ///   - id: the request id.
    ///   - maxPages: the page limit, or nil to pull until the checkpoint closes.
    /// - Returns: the request.
    public static func pull(id: Int, maxPages: Int? = nil) -> DriverRequest {
        DriverRequest(id: id, .pull(PullOptions(maxPages: maxPages)))
    }

    /// A state request.
    /// - Parameters:
    ///   - id: the request id.
    ///   - tables: the tables to report, or nil for all.
    /// - Returns: the request.
    public static func state(id: Int, tables: [String]? = nil) -> DriverRequest {
        DriverRequest(id: id, .state(StateOptions(tables: tables)))
    }

    /// A close request.
    /// - Returns: the request.
    public static func close(id: Int) -> DriverRequest { DriverRequest(id: id, .close) }
}
