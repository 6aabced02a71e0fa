import Capture
import KizunaWire
import ServerContract

/// A KizunaSync server that is SQL in a PostgreSQL database (upstream's pack, or a team's own
/// schema), driven the way PostgREST and a fixture adapter would drive it, through libpq and
/// nothing else: each RPC in one transaction as the request role with the JWT claims set, the
/// fixture operations as SQL (a seed empties the synced tables and the pack's bookkeeping,
/// server changes are superuser DML so the pack's triggers fire, a held change keeps its own
/// connection open until its commit, a reap ages the tombstones past their TTL and runs the
/// pack's own reaper). It refuses a database that `accord postgres-init` did not mark.
public actor PostgresTarget: KizunaSync.ServerTarget {
    /// Where the target stands: not yet connected (connections open on first use, since a
    /// target factory is synchronous), or connected.
    enum State {
        case idle
        case connected(Connections)
    }

    /// The open connections of a connected target.
    struct Connections: Sendable {
        /// Superuser work: seeds, server changes, reaps.
        var admin: PostgresConnection
        /// The RPCs, as the request role.
        var rpc: PostgresConnection
        /// `pull` and `push` as the catalog declares them.
        var functions: [String: RPCFunction]
    }

    let url: String
    /// The database URL with any password removed, for messages.
    public nonisolated let shownURL: String
    let config: TargetConfig
    var state = State.idle
    /// Held transactions by name, each on its own connection with a transaction open.
    var held: [String: PostgresConnection] = [:]
    var projection = RowProjection()
    /// The tables the current seed configured, with their key columns and conflict mode.
    var seeded: [String: (keys: [String], conflictMode: String)] = [:]

    /// The connections the targets of one run share, so each case's target does not pay for new
    /// sessions (PL/pgSQL compiles the pack's functions once per session). Cases against one
    /// database take turns, so sharing is safe; held transactions always get their own.
    private let sessions: Sessions?

    /// Makes a target; nothing connects until it is first used.
    /// - Parameters:
    ///   - url: a libpq connection URI, e.g. `postgres://accord@127.0.0.1:5432/accord`.
    ///   - config: the schema, role and synced tables (Accord's corpus domain by default).
    ///   - sessions: connections shared with the run's other targets, or nil for its own.
    public init(url: String, config: TargetConfig = .corpus, sessions: Sessions? = nil) {
        self.url = url
        self.shownURL = Self.withoutPassword(url)
        self.config = config
        self.sessions = sessions
    }

    /// Connects and checks that the database is one this target may drive: reachable, marked by
    /// `accord postgres-init`, with `pull` and `push` in the configured schema.
    /// - Throws: `PostgresError` saying what is missing, in one line.
    public func check() async throws(PostgresError) { _ = try await connections() }

    /// A wall clock (`deleted_at` comes from `now()`), seqs stamped at commit (the pack draws them
    /// while the writing transaction commits, so a held transaction never leaves a hole), and the
    /// configured numbering.
    /// - Returns: the capabilities.
    public func capabilities() async throws(TargetError) -> TargetCapabilities {
        TargetCapabilities(clock: .wall, seqs: config.seqs, numbering: config.numbering, noOpWrites: config.noOpWrites)
    }

    /// Takes the step and keeps the server's own clock: the pack stamps times from `now()`.
    public func setStep(_ step: Int) async throws(TargetError) {}

    /// The connections, opened and checked on first use.
    func connections() async throws(PostgresError) -> Connections {
        if case .connected(let connections) = state { return connections }
        if let shared = await sessions?.connections {
            state = .connected(shared)
            return shared
        }
        let admin = try await PostgresConnection(url: url, shown: shownURL)
        try await admin.execute(Self.sessionGuards, context: "connect")
        let marked = try await admin.execute("select to_regclass('\(CorpusDomain.marker)') is not null", context: "connect").scalar
        guard marked == "t" else {
            throw .notPrepared(
                "\(shownURL) was not prepared for accord (no table \(CorpusDomain.marker)): the Postgres target empties its synced tables at every case, so it drives only a database marked by 'accord postgres-init'"
            )
        }
        let functions = try await Self.functions(in: config.schema, on: admin)
        for name in ["pull", "push"] where functions[name] == nil {
            throw .notPrepared(
                "\(shownURL) has no function \(config.schema).\(name): apply the KizunaSync pack (0001_kizuna_init.sql) first")
        }
        let rpc = try await PostgresConnection(url: url, shown: shownURL)
        try await rpc.execute(Self.sessionGuards, context: "connect")
        let connections = Connections(admin: admin, rpc: rpc, functions: functions)
        state = .connected(connections)
        await sessions?.keep(connections)
        return connections
    }

    /// `pull` and `push` of a schema, as the catalog declares them.
    private static func functions(in schema: String, on connection: PostgresConnection) async throws(PostgresError) -> [String: RPCFunction]
    {
        let result = try await connection.execute(
            """
            select p.proname, a.name, format_type(a.type, null), p.pronargs - p.pronargdefaults
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            cross join lateral unnest(p.proargnames[1:p.pronargs], p.proargtypes::oid[]) with ordinality as a(name, type, ord)
            where n.nspname = $1 and p.proname in ('pull', 'push')
            order by p.proname, p.oid, a.ord
            """, [schema], context: "connect")
        var functions: [String: RPCFunction] = [:]
        for row in result.rows {
            guard let name = row[0], let argument = row[1], let type = row[2], let required = row[3].flatMap({ Int($0) }) else {
                continue
            }
            var function = functions[name] ?? RPCFunction(schema: schema, name: name, arguments: [], required: required)
            function.arguments.append(RPCFunction.Argument(name: argument, type: type))
            functions[name] = function
        }
        return functions
    }

    /// A connection URL or key/value string as messages show it (`Redactor.target`).
    public static func withoutPassword(_ url: String) -> String { Redactor.target(url) }

    /// A `PostgresError` as the lane sees it. A lost connection is forgotten, by this target and
    /// by the run's shared sessions, so the next case connects afresh instead of failing too.
    func targetError(_ error: PostgresError) async -> TargetError {
        guard error.isConnectionFailure else { return .refused(error.description) }
        if case .connected(let lost) = state {
            state = .idle
            await sessions?.forget(lost)
        }
        return .unreachable(error.description)
    }

    /// What every session of the target sets first: no statement waits forever on a lock a held
    /// transaction keeps, and times render in UTC.
    static let sessionGuards = "set lock_timeout = '10s'; set statement_timeout = '120s'; set timezone = 'UTC';"
}

extension PostgresTarget {
    /// The connections of one run, made by its first target and reused by the rest.
    public actor Sessions {
        fileprivate var connections: Connections?

        /// Nothing open yet.
        public init() {}

        fileprivate func keep(_ made: Connections) {
            if connections == nil { connections = made }
        }

        fileprivate func forget(_ lost: Connections) {
            if connections?.admin === lost.admin { connections = nil }
        }
    }
}
