import Corpus
import JSON
import KizunaWire
import ServerContract

/// The embedded KizunaSync reference server: the push and pull RPCs of PROTOCOL-NOTES §2–3 on
/// one SQLite connection, plus the fixture operations the server lane drives.
public actor ReferenceServer: KizunaSync.ServerTarget {
    private let db: SQLiteConnection
    private let store: Store
    private let domain: ReferenceDomain
    private var config: EffectiveConfig
    private var step = 0
    /// True once the fixture clock is set (seed or setStep); until then server times are wall-clock.
    private var logical = false
    private var held: [String: [HeldChange]] = [:]
    /// The seeded faults switched on (the self-test's mutants); empty for the real server.
    private let faults: Set<ServerFault>
    private let noOpWrites: TargetCapabilities.NoOpWrites

    /// Opens a server on a database file, or in memory, serving the corpus domain.
    /// - Parameters:
    ///   - path: the SQLite file; nil keeps the database in memory.
    ///   - faults: seeded faults to switch on (the self-test's mutants); empty by default.
    /// - Throws: `ReferenceServerError` when the database cannot be opened or prepared.
    public init(path: String? = nil, faults: Set<ServerFault> = [], noOpWrites: TargetCapabilities.NoOpWrites = .stamped)
        throws(ReferenceServerError)
    {
        try self.init(path: path, domain: .corpus, faults: faults, noOpWrites: noOpWrites)
    }

    /// Opens a server on a database file, or in memory, serving the tables of `domain`.
    /// - Parameters:
    ///   - path: the SQLite file; nil keeps the database in memory.
    ///   - domain: the tables, their columns, types, keys and write policy.
    ///   - faults: seeded faults to switch on (the self-test's mutants); empty by default.
    /// - Throws: `ReferenceServerError` when the database cannot be opened or prepared.
    public init(
        path: String? = nil, domain: ReferenceDomain, faults: Set<ServerFault> = [], noOpWrites: TargetCapabilities.NoOpWrites = .stamped
    ) throws(ReferenceServerError) {
        let db = try SQLiteConnection(path: path)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        self.db = db
        self.store = try Store(db: db)
        self.domain = domain
        self.config = EffectiveConfig(domain: domain)
        self.config.noOpWrites = noOpWrites
        self.faults = faults
        self.noOpWrites = noOpWrites
    }

    /// Server-assigned time: the fixture contract's logical clock once a case drives it, else
    /// the wall clock (RFC 3339, UTC, milliseconds) for a server serving real clients.
    private var now: String { logical ? LogicalClock.timestamp(step: step) : LogicalClock.wallClock() }

    private var pendingSeqs: Set<Int64> { Set(held.values.flatMap { $0.map(\.seq) }) }

    /// What the reference server steers: the logical clock once a case drives it, and seqs
    /// stamped at write (a held transaction leaves a hole).
    /// - Returns: `TargetCapabilities.reference`.
    /// - Throws: never; the signature is the contract's.
    public func capabilities() async throws(TargetError) -> TargetCapabilities {
        var capabilities = TargetCapabilities.reference
        capabilities.noOpWrites = noOpWrites
        return capabilities
    }

    /// Resets the server to an empty state with a case's configuration, first seq and history.
    /// - Returns: the base (`next_seq - 1`) and the seq each history change stamped.
    /// - Throws: `TargetError.refused` when the seed names an unknown table or a seq out of range.
    @discardableResult
    public func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        guard let first = Int64(seed.nextSeq.text), first >= 1 else { throw .refused("next seq \(seed.nextSeq) is out of range") }
        var config = EffectiveConfig(server: seed.server, domain: domain)
        config.noOpWrites = noOpWrites
        let previous = (self.config, step, held, logical)
        self.config = config
        step = 0
        logical = true
        held = [:]
        let time = now
        var stamped: [SequenceNumber?] = []
        do {
            try refusing { () throws(ReferenceServerError) in
                try db.transaction { () throws(ReferenceServerError) in
                    try store.reset(nextSeq: first)
                    let fixtures = FixtureApplier(store: store, config: config)
                    for change in seed.history {
                        let before = try store.meta(.nextSeq)
                        try fixtures.apply(change, time: time)
                        let after = try store.meta(.nextSeq)
                        stamped.append(after > before ? SequenceNumber(UInt64(after - 1)) : nil)
                    }
                }
            }
        } catch {
            // The database rolled back; so does everything else, so a refused seed changes nothing.
            (self.config, step, held, logical) = previous
            throw error
        }
        return SeedReceipt(base: SequenceNumber(UInt64(first - 1)), history: stamped)
    }

    /// Switches the synced tables and limits to `server` without touching stored data (for a
    /// long-running server; `seed` also resets the data).
    /// - Parameter server: the configuration, as a case's `context.server` declares it.
    public func configure(_ server: ServerConfig) {
        config = EffectiveConfig(server: server, domain: domain)
        config.noOpWrites = noOpWrites
    }

    /// Sets the logical clock: server-assigned times become `2026-01-01T00:00:<n>.000Z`.
    /// - Parameter step: the step number `n`.
    /// - Throws: never; the signature is the contract's.
    public func setStep(_ step: Int) async throws(TargetError) {
        self.step = step
        logical = true
    }

    /// Applies another actor's change, bypassing bucket visibility; a held change stamps its seq
    /// now and stays invisible until `commit(transaction:)`.
    /// - Parameters:
    ///   - change: the change.
    ///   - transaction: the held transaction's name, or nil to commit at once.
    /// - Throws: `TargetError.refused` for an unknown table or a delete of an absent row.
    public func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        let fixtures = FixtureApplier(store: store, config: config)
        let time = now
        try refusing { () throws(ReferenceServerError) in
            try db.transaction { () throws(ReferenceServerError) in
                if let transaction, case .reap = change {
                    throw ReferenceServerError.fixture("a reap cannot be held in transaction \(transaction)")
                } else if let transaction {
                    try fixtures.check(change)
                    held[transaction, default: []].append(HeldChange(seq: try store.allocateSeq(), time: time, change: change))
                } else {
                    try fixtures.apply(change, time: time)
                }
            }
        }
    }

    /// Commits a held transaction: its changes take effect with the seqs they stamped.
    /// - Throws: `TargetError.refused` when no such transaction is open.
    public func commit(transaction: String) async throws(TargetError) {
        guard let changes = held.removeValue(forKey: transaction) else { throw .refused("no open transaction \(transaction)") }
        let fixtures = FixtureApplier(store: store, config: config)
        do {
            try refusing { () throws(ReferenceServerError) in
                try db.transaction { () throws(ReferenceServerError) in
                    for change in changes { try fixtures.apply(change.change, time: change.time, seq: change.seq) }
                }
            }
        } catch {
            held[transaction] = changes
            throw error
        }
    }

    /// Calls `rpc/pull` as a user and session.
    /// - Returns: the reply: a page or a signal (200), or a PostgREST error (22023, KZL01, …).
    /// - Throws: never; a storage failure is a 500 reply.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        let handler = PullHandler(store: store, config: config, pending: pendingSeqs, faults: faults)
        return Self.replying { () throws(ReferenceServerError) in try handler.handle(body, as: identity) }
    }

    /// Calls `rpc/push` as a user and session.
    /// - Returns: the reply: verdicts, an abort or a signal (200), or a PostgREST error.
    /// - Throws: never; a storage failure is a 500 reply.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        let handler = PushHandler(store: store, config: config, now: now, faults: faults)
        return Self.replying { () throws(ReferenceServerError) in try handler.handle(body, as: identity) }
    }

    private func refusing(_ body: () throws(ReferenceServerError) -> Void) throws(TargetError) {
        do {
            try body()
        } catch {
            throw .refused(error.description)
        }
    }

    private static func replying(_ body: () throws(ReferenceServerError) -> RPCReply) -> RPCReply {
        do {
            return try body()
        } catch {
            return .error(status: 500, code: "XX000", message: error.description)
        }
    }
}
