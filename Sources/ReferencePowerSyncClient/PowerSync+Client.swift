import Corpus
import JSON
import PowerSyncWire
import Transport

extension PowerSync {
    /// The reference PowerSync client on SQLite (issue 24): local writes and their upload queue,
    /// the sync stream read line by line and applied a whole checkpoint at a time (a priority's
    /// buckets at a time on the live stream), checkpoint requests and waits for them. One actor per local database connection. It knows nothing of the driver protocol;
    /// ReferenceDriver maps it onto accord-driver/1 (docs/driver-protocol.md §11).
    public actor Client {
        /// Whether the client is connected, and the last upload or download failure it saw since.
        enum Link: Sendable, Hashable {
            /// Connected; `lastFailure` is the last failed upload or sync stream, nil when none failed since.
            case connected(lastFailure: SyncFailure?)
            /// The app disconnected the client.
            case disconnected
        }

        /// A failure that fails waits until it recovers.
        enum SyncFailure: Sendable, Hashable {
            case upload, download
        }

        /// The request counter (the core's `last_requested_checkpoint_request_id`).
        static let counterKey = "last_requested_checkpoint_request_id"
        static let lastCheckpointKey = "last_checkpoint"
        /// The apply gate (the core's `target_checkpoint_request_id`): `Int64.max` while local writes
        /// wait for a concrete id, then the id an accepted upload was answered.
        static let targetKey = "target_checkpoint_request_id"
        /// The `write_checkpoint` of the last full checkpoint validated since the last local write.
        static let lastSeenKey = "last_seen_checkpoint_request_id"
        static let appliedWriteCheckpointKey = "last_applied_checkpoint_request_id"
        /// The target of local writes whose concrete id is not known yet (the core's `MAX_OP_ID`).
        static let pendingTarget = Int64.max

        let configuration: PowerSync.Attachment
        let faults: Set<PowerSync.ClientFault>
        let database: LocalDatabase
        let http: CurlSession
        /// Called at each kill-matrix seam the client reaches.
        let reached: @Sendable (KillHook) -> Void
        var link = Link.connected(lastFailure: nil)
        /// The live sync stream, if the app asked to follow one.
        var following = Following.idle
        /// The apps waiting on requests, by a token of each wait.
        var waiters: [Int: Waiter] = [:]
        /// The next wait's token.
        var nextWaiter = 0
        /// Whether the request counter was reconciled with the service since the client connected
        /// (attach, reconnect, local reset), in requests mode.
        var seeded = false
        /// The reconcile in flight, which every id allocated meanwhile waits for (the core: "wait for
        /// seeding to complete before creating checkpoint requests"), so two never race to seed.
        var reconciling: Task<Result<Void, PowerSync.ClientError>, Never>?

        /// Opens (or creates) the local database and connects.
        /// - Parameters:
        ///   - configuration: the store, service and identities.
        ///   - faults: seeded faults to switch on.
        ///   - reached: called at each kill-matrix seam (`KillHook`); nothing by default.
        /// - Throws: `PowerSync.ClientError` (STORE, or REMOTE when the HTTP client does not start).
        public init(
            configuration: PowerSync.Attachment, faults: Set<PowerSync.ClientFault> = [],
            reached: @escaping @Sendable (KillHook) -> Void = { _ in }
        ) throws(PowerSync.ClientError) {
            self.configuration = configuration
            self.faults = faults
            self.reached = reached
            database = try LocalDatabase(path: configuration.store)
            // Recovery: a kill after a checkpoint was applied and before its requests were marked
            // synced leaves them pending; the applied write checkpoint says which it covered.
            if let applied = try database.value(Self.appliedWriteCheckpointKey), !faults.contains(.syncedStateNotRecovered) {
                try database.markSynced(through: applied)
            }
            do {
                http = try CurlSession()
            } catch {
                throw .remote("the HTTP client did not start: \(error)")
            }
        }

        /// Applies a local write and queues its upload entry, in one local transaction.
        /// - Returns: the upload queue depth afterwards.
        /// - Throws: `PowerSync.ClientError` (STORE).
        public func write(_ write: PowerSync.LocalWrite) throws(PowerSync.ClientError) -> Int {
            let database = self.database
            return try database.connection.transaction { () throws(PowerSync.ClientError) -> Int in
                switch write.op {
                case .put: try database.put(write.table, write.id, write.data ?? JSONObject(), bucket: nil)
                case .patch:
                    var row = try database.row(write.table, write.id) ?? JSONObject()
                    for member in (write.data ?? JSONObject()).members { row[member.key] = member.value }
                    try database.put(write.table, write.id, row, bucket: nil)
                case .delete: try database.delete(write.table, write.id)
                }
                var entry: JSONObject = ["op": .string(write.op.rawValue), "type": .string(write.table), "id": .string(write.id)]
                if let data = write.data { entry["data"] = .object(data) }
                try database.enqueue(.object(entry))
                // The core's CRUD triggers: no checkpoint seen or applied before this write acknowledges it.
                try database.set(Self.targetKey, Self.pendingTarget)
                try database.set(Self.lastSeenKey, nil)
                try database.set(Self.appliedWriteCheckpointKey, nil)
                return try database.queueDepth()
            }
        }

        /// Disconnects from the service: closes the live stream, if any, and fails the waits as
        /// disconnected (the requests survive).
        public func disconnect() {
            link = .disconnected
            seeded = false
            stopFollowing(resume: true)
            endWaits(.disconnected)
        }

        /// Connects again; earlier failures are forgotten, and a live stream closed by `disconnect`
        /// opens again from the positions held.
        public func reconnect() {
            link = .connected(lastFailure: nil)
            seeded = false
            if case .suspended = following { restartLive() }
        }

        /// Clears the local database: rows, buckets, upload queue, requests and their counter.
        /// - Throws: `PowerSync.ClientError` (STORE).
        public func reset() throws(PowerSync.ClientError) {
            let database = self.database
            try database.connection.transaction { () throws(PowerSync.ClientError) in try database.reset() }
            seeded = false
            // A live stream asks again from nothing, as the positions it started from are gone.
            switch following {
            case .reading, .reconnecting: restartLive()
            case .idle, .suspended: break
            }
        }

        /// The client's state.
        /// - Parameter tables: the tables whose rows to report, nil for every table with rows.
        /// - Returns: rows, queue depth, the last applied checkpoint and the requests (id → synced).
        /// - Throws: `PowerSync.ClientError` (STORE).
        public func state(tables: [String]?) throws(PowerSync.ClientError) -> (
            rows: [String: [String: JSONObject]], pendingUploads: Int, lastCheckpoint: String?, requests: [String: Bool]
        ) {
            var rows = try database.rows()
            if let tables {
                rows = rows.filter { tables.contains($0.key) }
                for table in tables where rows[table] == nil { rows[table] = [:] }
            }
            var requests: [String: Bool] = [:]
            for (id, synced) in try database.requests() { requests[String(id)] = synced }
            return (rows, try database.queueDepth(), try database.value(Self.lastCheckpointKey).map { String($0) }, requests)
        }

        /// Closes the live stream, if any, and the local database.
        public func close() {
            stopFollowing(resume: false)
            endWaits(.disconnected)
            database.connection.close()
        }

        /// POSTs a JSON body to a path of the service.
        func post(_ path: String, _ body: JSONValue) async throws(TransportError) -> ClientResponse {
            try await http.send(
                "POST", configuration.baseURL + path,
                headers: [
                    ("Authorization", "\(PowerSync.Surface.clientScheme) \(configuration.token)"), ("Content-Type", "application/json"),
                    ("Accept", "application/json"),
                ],
                body: Array(CanonicalJSON.compact(body).utf8), timeout: 5)
        }

        /// GETs a path of the service (its query already percent-encoded).
        func get(_ pathAndQuery: String) async throws(TransportError) -> ClientResponse {
            try await http.send(
                "GET", configuration.baseURL + pathAndQuery,
                headers: [("Authorization", "\(PowerSync.Surface.clientScheme) \(configuration.token)"), ("Accept", "application/json")],
                body: [], timeout: 5)
        }

        /// Fails waits with `failure` until it recovers (only while connected).
        func failed(_ failure: SyncFailure) { if case .connected = link { link = .connected(lastFailure: failure) } }

        /// A failure recovered.
        func recovered(_ failure: SyncFailure) { if link == .connected(lastFailure: failure) { link = .connected(lastFailure: nil) } }
    }
}
