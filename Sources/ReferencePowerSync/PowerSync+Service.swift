import Corpus
import HTTP
import PowerSyncWire

extension PowerSync {
    /// The embedded PowerSync-shaped service (docs/powersync.md, "The embedded service"): a source
    /// database reduced to transactions of bucket ops and bucket grants, replication that numbers
    /// ops into an op log with checksums, and the answers of `POST /sync/stream`,
    /// `GET /write-checkpoint2.json` and `POST /sync/checkpoint-request` on one SQLite connection.
    public actor Service {
        private let db: SQLiteConnection
        private let log: OpLog
        /// The most ops one data line carries (nil: no limit).
        private var pageOps: Int?
        /// The seeded faults switched on (the self-test's mutants); empty for the real service.
        private let faults: Set<PowerSync.ServiceFault>
        /// The wake-ups of open streams, rung when the source changes.
        private var watchers: [ObjectIdentifier: Wakeup] = [:]
        /// True once the server is stopping: waiting streams end.
        private var closing = false
        /// The last write checkpoint acknowledged per stream owner (user/client), for the
        /// `writeCheckpointGoesBack` fault only.
        private var acknowledgedByFault: [String: OpID] = [:]

        /// Opens a service on a database file, or in memory.
        /// - Parameters:
        ///   - path: the SQLite file; nil keeps the database in memory.
        ///   - settings: how the service answers (the data page size).
        ///   - faults: seeded faults to switch on; empty by default.
        /// - Throws: `PowerSync.ServiceError` when the database cannot be opened or prepared.
        public init(
            path: String? = nil, settings: PowerSync.ServiceSettings = PowerSync.ServiceSettings(), faults: Set<PowerSync.ServiceFault> = []
        )
            throws(PowerSync.ServiceError)
        {
            let db = try SQLiteConnection(path: path)
            self.db = db
            self.log = try OpLog(db: db)
            self.pageOps = settings.dataPageOps
            self.faults = faults
        }

        /// Sets how the service answers (the server lane sets each case's `service` settings).
        public func configure(_ settings: PowerSync.ServiceSettings) { pageOps = settings.dataPageOps }

        /// Commits one source transaction, replicating it at once unless it says otherwise.
        /// - Throws: `PowerSync.ServiceError` for a value the service cannot read, or storage.
        public func apply(_ commit: SourceCommit) throws(PowerSync.ServiceError) {
            try db.transaction { () throws(PowerSync.ServiceError) in try log.commit(commit) }
            wake()
        }

        /// Replication catches up with the source database.
        /// - Throws: `PowerSync.ServiceError` for storage.
        public func replicate() throws(PowerSync.ServiceError) {
            try db.transaction { () throws(PowerSync.ServiceError) in try log.replicate() }
            wake()
        }

        /// `GET /write-checkpoint2.json`: the next id of the user and client's one counter (shared
        /// with their checkpoint requests; 1 when there is none), waiting for the current source
        /// position, as PowerSync's service generates it (module-postgres-storage
        /// `PostgresWriteCheckpointAPI.ts`: `write_checkpoint + 1`).
        /// - Parameters:
        ///   - userID: the authenticated user.
        ///   - clientID: the `client_id` query parameter, if sent (without one the user's own counter).
        /// - Returns: the answer.
        /// - Throws: `PowerSync.ServiceError` for storage, or `.exhausted` past 2^63−1.
        public func writeCheckpoint(userID: String, clientID: String? = nil) throws(PowerSync.ServiceError) -> WriteCheckpointAnswer {
            let id = try db.transaction { () throws(PowerSync.ServiceError) -> Int64 in
                let owner = OpLog.owner(user: userID, client: clientID)
                let last = try log.checkpoint(of: owner)?.id ?? 0
                guard last < Int64.max else { throw .exhausted("\(owner)'s write checkpoint is at 2^63−1; no greater id exists") }
                try log.setCheckpoint(of: owner, id: last + 1, lsn: try log.position("source"))
                return last + 1
            }
            wake()  // an open stream acknowledges it once its position is replicated
            return WriteCheckpointAnswer(writeCheckpoint: OpLog.opID(id))
        }

        /// `POST /sync/checkpoint-request`: reconciles the submitted id with the user and client's
        /// one counter by keeping the greater, as PowerSync's service does (a greater id is stored
        /// with the current source position; an equal or stale one changes nothing), and answers it.
        /// - Parameters:
        ///   - request: the decoded body.
        ///   - userID: the authenticated user.
        /// - Returns: the answer.
        /// - Throws: `PowerSync.ServiceError` for storage.
        public func checkpointRequest(_ request: CheckpointRequest, userID: String) throws(PowerSync.ServiceError)
            -> CheckpointRequestAnswer
        {
            let id = try db.transaction { () throws(PowerSync.ServiceError) -> Int64 in
                let owner = OpLog.owner(user: userID, client: request.clientID)
                let held = try log.checkpoint(of: owner)
                let kept = max(held?.id ?? 0, request.id.value)
                if let held, request.id.value <= held.id {
                    // Stale or repeated: the row stays, unless the fault stores the submitted id.
                    if faults.contains(.requestIDMovesBack) { try log.setCheckpoint(of: owner, id: request.id.value, lsn: held.lsn) }
                } else {
                    try log.setCheckpoint(of: owner, id: kept, lsn: try log.position("source"))
                }
                return kept
            }
            wake()  // an open stream acknowledges a request whose position is already replicated
            return CheckpointRequestAnswer(id: OpLog.opID(id))
        }

        /// What an open stream says next (nothing when the user's checkpoint is unchanged).
        /// - Parameter cursor: the stream; it advances.
        /// - Returns: the lines.
        /// - Throws: `PowerSync.ServiceError` for storage.
        public func answer(_ cursor: inout StreamCursor) throws(PowerSync.ServiceError) -> [SyncLine] {
            let lines = try log.answer(&cursor, pageOps: pageOps, faults: faults)
            guard faults.contains(.writeCheckpointGoesBack) else { return lines }
            // The fault: a newer write checkpoint is acknowledged as one below the last one this
            // user and client were acknowledged, on any stream (a stale read).
            let owner = OpLog.owner(user: cursor.userID, client: cursor.clientID)
            return lines.map { line in
                switch line {
                case .checkpoint(var checkpoint):
                    checkpoint.writeCheckpoint = stale(checkpoint.writeCheckpoint, owner)
                    return .checkpoint(checkpoint)
                case .checkpointDiff(var diff):
                    diff.writeCheckpoint = stale(diff.writeCheckpoint, owner)
                    return .checkpointDiff(diff)
                default: return line
                }
            }
        }

        private func stale(_ id: OpID?, _ owner: String) -> OpID? {
            guard let id else { return nil }
            defer { acknowledgedByFault[owner] = max(acknowledgedByFault[owner] ?? id, id) }
            guard let last = acknowledgedByFault[owner], id > last, last.value > 1 else { return id }
            return OpLog.opID(last.value - 1)
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
        /// - Throws: `PowerSync.ServiceError` for storage.
        public func reset() throws(PowerSync.ServiceError) {
            try db.transaction { () throws(PowerSync.ServiceError) in try log.reset() }
            pageOps = nil
            acknowledgedByFault = [:]
            wake()
        }

        private func wake() {
            for wakeup in watchers.values { wakeup.ring() }
        }
    }
}
