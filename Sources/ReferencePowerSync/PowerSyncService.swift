import Corpus
import HTTP
import KizunaWire
import PowerSyncWire

/// The embedded PowerSync-shaped service (docs/powersync.md, "The embedded service"): a source
/// database reduced to transactions of bucket ops and bucket grants, replication that numbers
/// ops into an op log with checksums, and the answers of `POST /sync/stream`,
/// `GET /write-checkpoint2.json` and `POST /sync/checkpoint-request` on one SQLite connection.
public actor PowerSyncService {
    private let db: SQLiteConnection
    private let log: OpLog
    /// The most ops one data line carries (nil: no limit).
    private var pageOps: Int?
    /// The seeded faults switched on (the self-test's mutants); empty for the real service.
    private let faults: Set<PowerSyncFault>
    /// The wake-ups of open streams, rung when the source changes.
    private var watchers: [ObjectIdentifier: Wakeup] = [:]
    /// True once the server is stopping: waiting streams end.
    private var closing = false

    /// Opens a service on a database file, or in memory.
    /// - Parameters:
    ///   - path: the SQLite file; nil keeps the database in memory.
    ///   - settings: how the service answers (the data page size).
    ///   - faults: seeded faults to switch on; empty by default.
    /// - Throws: `PowerSyncServiceError` when the database cannot be opened or prepared.
    public init(path: String? = nil, settings: PowerSyncServiceSettings = PowerSyncServiceSettings(), faults: Set<PowerSyncFault> = [])
        throws(PowerSyncServiceError)
    {
        let db = try SQLiteConnection(path: path)
        self.db = db
        self.log = try OpLog(db: db)
        self.pageOps = settings.dataPageOps
        self.faults = faults
    }

    /// Sets how the service answers (the server lane sets each case's `service` settings).
    /// - Parameter settings: the settings.
    public func configure(_ settings: PowerSyncServiceSettings) { pageOps = settings.dataPageOps }

    /// Commits one source transaction, replicating it at once unless it says otherwise.
    /// - Parameter commit: the transaction.
    /// - Throws: `PowerSyncServiceError` for a value the service cannot read, or storage.
    public func apply(_ commit: SourceCommit) throws(PowerSyncServiceError) {
        try db.transaction { () throws(PowerSyncServiceError) in try log.commit(commit) }
        wake()
    }

    /// Replication catches up with the source database.
    /// - Throws: `PowerSyncServiceError` for storage.
    public func replicate() throws(PowerSyncServiceError) {
        try db.transaction { () throws(PowerSyncServiceError) in try log.replicate() }
        wake()
    }

    /// `GET /write-checkpoint2.json`: a new write checkpoint for the user, one past its last,
    /// recording the source position it waits for.
    /// - Parameter userID: the authenticated user.
    /// - Returns: the answer.
    /// - Throws: `PowerSyncServiceError` for storage.
    public func writeCheckpoint(userID: String) throws(PowerSyncServiceError) -> WriteCheckpointAnswer {
        let id = try db.transaction { () throws(PowerSyncServiceError) -> Int64 in
            let last = try log.lastWriteCheckpoint(of: userID) ?? 0
            guard last < Int64.max else { throw .exhausted("user \(userID)'s write checkpoint is at 2^63−1; no greater id exists") }
            let id = last + 1
            try log.addWriteCheckpoint(user: userID, id: id, lsn: try log.position("source"))
            return id
        }
        return WriteCheckpointAnswer(writeCheckpoint: OpLog.opID(id))
    }

    /// `POST /sync/checkpoint-request`: reconciles the submitted id with the one held for the
    /// user and client by keeping the greater, records the source position, and answers it.
    /// - Parameters:
    ///   - request: the decoded body.
    ///   - userID: the authenticated user.
    /// - Returns: the answer.
    /// - Throws: `PowerSyncServiceError` for storage.
    public func checkpointRequest(_ request: CheckpointRequest, userID: String) throws(PowerSyncServiceError) -> CheckpointRequestAnswer {
        let id = try db.transaction { () throws(PowerSyncServiceError) -> Int64 in
            let held = try log.heldRequest(user: userID, client: request.clientID) ?? 0
            let kept = max(held, request.id.value)
            let stored = faults.contains(.requestIDMovesBack) ? request.id.value : kept
            try log.holdRequest(user: userID, client: request.clientID, id: stored, acknowledged: kept, lsn: try log.position("source"))
            return kept
        }
        wake()  // an open stream acknowledges a request whose position is already replicated
        return CheckpointRequestAnswer(id: OpLog.opID(id))
    }

    /// What an open stream says next (nothing when the user's checkpoint is unchanged).
    /// - Parameter cursor: the stream; it advances.
    /// - Returns: the lines.
    /// - Throws: `PowerSyncServiceError` for storage.
    public func answer(_ cursor: inout StreamCursor) throws(PowerSyncServiceError) -> [SyncLine] {
        try log.answer(&cursor, pageOps: pageOps, faults: faults)
    }

    /// Rings `wakeup` at every source commit, replication and reset until `unwatch`: an open
    /// stream waits on it beside its socket, so it notices a change and a hang-up alike, and a
    /// change between its last answer and its wait still rings. False once the service is
    /// shutting down.
    public func watch(_ wakeup: Wakeup) -> Bool {
        guard !closing else { return false }
        watchers[ObjectIdentifier(wakeup)] = wakeup
        return true
    }

    /// Stops ringing `wakeup` (its stream has ended).
    public func unwatch(_ wakeup: Wakeup) { watchers[ObjectIdentifier(wakeup)] = nil }

    /// Whether the service is shutting down: open streams end.
    public var isClosing: Bool { closing }

    /// Ends every open stream for good (the server is stopping).
    public func shutDown() {
        closing = true
        wake()
        watchers = [:]
    }

    /// Empties every table: the next case starts from nothing (the fixture endpoint's reset).
    /// - Throws: `PowerSyncServiceError` for storage.
    public func reset() throws(PowerSyncServiceError) {
        try db.transaction { () throws(PowerSyncServiceError) in try log.reset() }
        pageOps = nil
        wake()
    }

    private func wake() {
        for wakeup in watchers.values { wakeup.ring() }
    }
}
