import AccordDriver
import Corpus
import KizunaWire
import PowerSyncWire
import ReferencePowerSyncClient

extension PowerSync {
    /// The reference PowerSync client as an `accord-driver/1` engine of the PowerSync profile
    /// (docs/driver-protocol.md §11): opens a `PowerSync.Client` on attach and maps each op and
    /// each `PowerSync.ClientError` onto the protocol (the client knows nothing of it).
    public actor ReferenceClientDriver: PowerSync.EngineDriver {
        /// The engine name announced by hello.
        public static let name = "accord-reference-powersync-client"
        /// The engine version announced by hello.
        public static let version = "0.1.0"

        private let faults: Set<PowerSync.ClientFault>
        private var client: PowerSync.Client?

        /// Makes a driver.
        /// - Parameter faults: the seeded faults to switch on (none by default).
        public init(faults: Set<PowerSync.ClientFault> = []) { self.faults = faults }

        /// Names the client; it announces kill-safe (one SQLite transaction per applied checkpoint,
        /// the request counter moved only by an answer, synced requests recovered at open).
        /// - Returns: name, version and capabilities.
        public func hello() async -> HelloResult {
            HelloResult(name: Self.name, version: Self.version, capabilities: [DriverCapability.killSafe])
        }

        /// Opens the local database at `request.store` (a directory holds `powersync.sqlite`).
        /// - Parameter request: the store, service and identities.
        /// - Throws: `EngineError` (STORE, STORE_UNAVAILABLE, REMOTE).
        public func attach(_ request: AttachRequest) async throws {
            var attachment = request
            attachment.store = try KizunaSync.ReferenceClientDriver.storePath(request.store, file: "powersync.sqlite")
            client = try await mapped { [attachment] () throws(PowerSync.ClientError) in
                try PowerSync.Client(
                    configuration: attachment,
                    faults: faults, reached: KillHook.reached)
            }
        }

        /// A local write and its upload queue entry.
        public func localWrite(_ write: PowerSync.LocalWrite) async throws -> Int {
            let client = try opened()
            return try await mapped { () async throws(PowerSync.ClientError) in try await client.write(write) }
        }

        /// Uploads the queue.
        public func upload() async throws -> UploadResult {
            let client = try opened()
            let uploaded = try await mapped { () async throws(PowerSync.ClientError) in try await client.upload() }
            return UploadResult(entries: uploaded.entries, checkpointRequestID: uploaded.checkpointRequestID)
        }

        /// Reads one sync stream.
        public func sync() async throws -> SyncResult {
            let client = try opened()
            return SyncResult(lines: try await mapped { () async throws(PowerSync.ClientError) in try await client.sync() })
        }

        /// Opens the live sync stream and reads it in the background.
        public func follow() async throws -> SyncResult {
            let client = try opened()
            return SyncResult(lines: try await mapped { () async throws(PowerSync.ClientError) in try await client.follow() })
        }

        /// Requests a checkpoint.
        public func requestCheckpoint() async throws -> String {
            let client = try opened()
            return try await mapped { () async throws(PowerSync.ClientError) in try await client.requestCheckpoint() }
        }

        /// Waits for a request.
        public func waitForSync(_ request: WaitRequest) async throws -> PowerSync.WaitOutcome {
            let client = try opened()
            return try await mapped { () async throws(PowerSync.ClientError) in
                try await client.waitForSync(request.checkpointRequestID, timeout: request.timeoutMilliseconds)
            }
        }

        /// Disconnects.
        public func disconnect() async throws { await (try opened()).disconnect() }

        /// Connects again.
        public func reconnect() async throws { await (try opened()).reconnect() }

        /// Clears the local database.
        public func localReset() async throws {
            let client = try opened()
            try await mapped { () async throws(PowerSync.ClientError) in try await client.reset() }
        }

        /// The client's state.
        public func clientState(tables: [String]?) async throws -> ClientStateResult {
            let client = try opened()
            let state = try await mapped { () async throws(PowerSync.ClientError) in try await client.state(tables: tables) }
            return ClientStateResult(
                rows: state.rows, pendingUploads: state.pendingUploads, lastCheckpoint: state.lastCheckpoint, requests: state.requests)
        }

        /// Closes the local database.
        public func close() async throws {
            await client?.close()
            client = nil
        }

        private func opened() throws -> PowerSync.Client {
            guard let client else { throw EngineError(.store, "no local database is open") }
            return client
        }

        private func mapped<T>(_ body: () async throws(PowerSync.ClientError) -> T) async throws -> T {
            do {
                return try await body()
            } catch {
                throw EngineError(EngineErrorCode(rawValue: error.protocolCode) ?? .store, error.message)
            }
        }
    }
}
