import AccordDriver
import Corpus
import Foundation
import JSON
import KizunaWire
import ReferenceClient

extension KizunaSync {
    /// The reference client as an `accord-driver/1` engine: opens a `SyncEngine` per case and answers every operation,
    /// mapping the engine's own reports and errors onto the driver protocol (the engine knows nothing of it).
    public actor ReferenceClientDriver: KizunaSync.EngineDriver {
        /// The engine name announced by hello.
        public static let name = "accord-reference-client"
        /// The engine version announced by hello.
        public static let version = "0.4.0"

        /// Makes the remote for an open request.
        public typealias RemoteFactory = @Sendable (OpenRequest) throws -> any ClientRemote

        private let faults: Set<ClientFault>
        private let makeRemote: RemoteFactory
        private var engine: SyncEngine?

        /// Makes a driver.
        /// - Parameters:
        ///   - faults: the seeded faults to switch on (none by default).
        ///   - remote: makes the server connection for each open; nil uses libcurl against `base_url`.
        public init(faults: Set<ClientFault> = [], remote: RemoteFactory? = nil) {
            self.faults = faults
            self.makeRemote =
                remote ?? { request in
                    do {
                        return try CurlRemote(baseURL: request.baseURL, apikey: request.apikey, jwt: request.jwt)
                    } catch {
                        throw EngineError(.configInvalid, "\(error)")
                    }
                }
        }

        /// Names the engine and its capabilities.
        /// - Returns: name, version and capabilities (transforms, atomic, soft-delete, kill-safe).
        public func hello() async -> HelloResult {
            HelloResult(
                name: Self.name, version: Self.version,
                capabilities: [
                    DriverCapability.transforms, DriverCapability.atomic, DriverCapability.softDelete, DriverCapability.killSafe,
                ])
        }

        /// Opens (or reopens) the store at `request.store`, creating its parent directories; a directory path holds `client.sqlite`.
        /// - Parameter request: the store path, server, identities and table configuration.
        /// - Throws: `EngineError` with `CONFIG_INVALID`, `STORE` or `STORE_UNAVAILABLE`.
        public func open(_ request: OpenRequest) async throws {
            if request.server.tables.isEmpty { throw EngineError(.configInvalid, "the server configuration names no table") }
            let path = try Self.storePath(request.store)
            let configuration = ClientConfiguration(
                clientID: request.clientID, userID: request.userID, schemaVersion: request.schemaVersion, tables: request.server.tables,
                pullLimit: request.pullLimit, checkpoint: request.checkpoint ?? "0")
            let remote = try makeRemote(request)
            engine = try await Self.mapped { () async throws in
                try SyncEngine.open(path: path, remote: remote, configuration: configuration, faults: faults, reached: KillHook.reached)
            }
        }

        /// Applies one local write with its outbox entry.
        /// - Parameter request: the write.
        /// - Returns: the outbox depth afterwards.
        /// - Throws: `EngineError` (e.g. SOFT_DELETE_VIOLATION, LOCAL_CONSTRAINT, UNKNOWN_TABLE).
        public func write(_ request: WriteRequest) async throws -> WriteResult {
            let engine = try opened()
            let depth = try await Self.mapped { () async throws in
                try await engine.write(mutation: request.mutation, atomicGroup: request.atomicGroup)
            }
            return WriteResult(outboxDepth: depth)
        }

        /// Runs one pushOnce.
        /// - Returns: what was sent.
        /// - Throws: `EngineError` (e.g. REMOTE, PERMANENT_TRANSPORT, VERDICT_BIJECTION).
        public func push() async throws -> PushResult {
            let engine = try opened()
            return PushResult(try await Self.mapped { () async throws in try await engine.pushOnce() })
        }

        /// Pulls until the checkpoint closes, a signal arrives, or `maxPages` pages were read.
        /// - Parameter request: the pull options.
        /// - Returns: how the pull ended and the cursor.
        /// - Throws: `EngineError` (e.g. REMOTE, JSON, UNKNOWN_SIGNAL).
        public func pull(_ request: PullOptions) async throws -> PullResult {
            let engine = try opened()
            return PullResult(try await Self.mapped { () async throws in try await engine.pull(maxPages: request.maxPages) })
        }

        /// Reports visible rows per requested table, the cursor, the outbox depth, events since open and the journal.
        /// - Parameter request: the tables to report (nil: every configured table).
        /// - Returns: the state.
        /// - Throws: `EngineError` with `UNKNOWN_TABLE` or `STORE`.
        public func state(_ request: StateOptions) async throws -> StateResult {
            let store = try opened().store
            return try await Self.mapped { () async throws in
                var rows: [String: [String: JSONObject]] = [:]
                let names = await store.tableNames
                for table in request.tables ?? names { rows[table] = try await store.rows(table: table) }
                return StateResult(
                    rows: rows, cursor: await store.cursor, outboxDepth: await store.outboxDepth,
                    events: await store.events.map { EngineEvent(code: $0.code, mutationID: $0.mutationID, data: $0.data) },
                    journal: await store.journal.map {
                        JournalEntry(table: $0.table, pk: $0.pk, mutationID: $0.mutationID, reason: $0.reason, data: $0.data)
                    })
            }
        }

        /// Closes the store.
        /// - Throws: never in practice; the signature is the protocol's.
        public func close() async throws {
            if let engine { await engine.store.close() }
            engine = nil
        }

        private func opened() throws -> SyncEngine {
            guard let engine else { throw EngineError(.store, "no store is open") }
            return engine
        }
    }
}
