import Corpus
import PowerSyncWire

extension PowerSync {
    /// A PowerSync client the driver loop can drive (docs/driver-protocol.md §11); its hello
    /// answers `profile: powersync`. Throw `EngineError` with a code for any refusal or failure.
    public protocol EngineDriver {
        /// Names the client and its capabilities for the hello answer.
        /// - Returns: the hello answer; the loop sets its profile to PowerSync.
        func hello() async -> HelloResult

        /// Opens the local database at the request's store and connects to its service.
        /// - Parameter request: the store, service, token and identities.
        /// - Throws: `EngineError` (e.g. STORE).
        func attach(_ request: AttachRequest) async throws

        /// Applies one local write and queues its upload entry in one local transaction.
        /// - Returns: the upload queue depth afterwards.
        /// - Throws: `EngineError` (e.g. STORE).
        func localWrite(_ write: PowerSync.LocalWrite) async throws -> Int

        /// Uploads the whole queue; after an accepted upload, makes the client's own checkpoint request.
        /// - Returns: what was uploaded.
        /// - Throws: `EngineError` (UPLOAD for a refused upload, REMOTE for a transport fault).
        func upload() async throws -> UploadResult

        /// Connects the sync stream once and reads it until the service ends it.
        /// - Returns: how many lines were read.
        /// - Throws: `EngineError` (DOWNLOAD for an error answer, REMOTE for a transport fault).
        func sync() async throws -> SyncResult

        /// Opens the live sync stream and keeps reading it in the background, applying what it
        /// delivers as it arrives, until `disconnect` (which `reconnect` undoes) or `close`.
        /// - Returns: the lines read before answering.
        /// - Throws: `EngineError` (DOWNLOAD, REMOTE when the stream ends before its first line).
        func follow() async throws -> SyncResult

        /// Requests a checkpoint of the service.
        /// - Returns: the checkpoint-request id the service answered, which names the request.
        /// - Throws: `EngineError` (e.g. DISCONNECTED, REMOTE).
        func requestCheckpoint() async throws -> String

        /// Waits for a request to sync, at most `request.timeoutMilliseconds`.
        /// - Parameter request: the request id and the timeout.
        /// - Returns: how the wait ended.
        /// - Throws: `EngineError` (UNKNOWN_REQUEST for an id the client never made).
        func waitForSync(_ request: WaitRequest) async throws -> PowerSync.WaitOutcome

        /// Disconnects from the service.
        /// - Throws: `EngineError`.
        func disconnect() async throws

        /// Connects to the service again.
        /// - Throws: `EngineError`.
        func reconnect() async throws

        /// Clears the local database: rows, buckets, upload queue, requests and their counter.
        /// - Throws: `EngineError` (e.g. STORE).
        func localReset() async throws

        /// Reports the client's state.
        /// - Parameter tables: the tables whose rows to report, nil for every table with rows.
        /// - Returns: rows, upload queue depth, last applied checkpoint and requests.
        /// - Throws: `EngineError` (e.g. STORE).
        func clientState(tables: [String]?) async throws -> ClientStateResult

        /// Closes the local database durably.
        /// - Throws: `EngineError` (e.g. STORE).
        func close() async throws
    }
}
