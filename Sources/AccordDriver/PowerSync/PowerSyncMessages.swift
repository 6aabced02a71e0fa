import Corpus
import JSON
import PowerSyncWire

/// The `attach` request: where the local database lives and how to reach the service.
public typealias AttachRequest = PowerSync.Attachment

/// The `wait-for-sync` request.
public struct WaitRequest: Sendable, Hashable {
    /// The checkpoint-request id the service answered.
    public var checkpointRequestID: String
    /// How long to wait, in milliseconds (at least 1).
    public var timeoutMilliseconds: Int

    /// Makes a wait request.
    public init(checkpointRequestID: String, timeoutMilliseconds: Int) {
        self.checkpointRequestID = checkpointRequestID
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}

/// The `upload` answer.
public struct UploadResult: Sendable, Hashable {
    /// The queue entries the upload carried; 0 when the queue was empty and nothing was sent.
    public var entries: Int
    /// The client's own checkpoint request made after the accepted upload, as the service answered it.
    public var checkpointRequestID: String?

    /// Makes an upload answer.
    /// - Parameters:
    ///   - entries: the entries uploaded.
    ///   - checkpointRequestID: the client's own request after it.
    public init(entries: Int, checkpointRequestID: String? = nil) {
        self.entries = entries
        self.checkpointRequestID = checkpointRequestID
    }
}

/// The `sync` answer.
public struct SyncResult: Sendable, Hashable {
    /// The NDJSON lines read before the service ended the stream (for `follow`: before the
    /// answer, the rest being read in the background).
    public var lines: Int

    /// Makes a sync answer.
    /// - Parameter lines: the lines read.
    public init(lines: Int) { self.lines = lines }
}

/// The `client-state` answer.
public struct ClientStateResult: Sendable, Hashable {
    /// Table → row id → columns: the locally readable rows.
    public var rows: [String: [String: JSONObject]]
    /// The upload queue depth.
    public var pendingUploads: Int
    /// The `last_op_id` of the last checkpoint applied; nil before the first.
    public var lastCheckpoint: String?
    /// Checkpoint-request id → whether it is synced.
    public var requests: [String: Bool]

    /// Makes a state answer.
    /// - Parameters:
    ///   - rows: the rows.
    ///   - pendingUploads: the queue depth.
    ///   - lastCheckpoint: the last applied checkpoint.
    ///   - requests: the requests.
    public init(rows: [String: [String: JSONObject]], pendingUploads: Int, lastCheckpoint: String?, requests: [String: Bool]) {
        self.rows = rows
        self.pendingUploads = pendingUploads
        self.lastCheckpoint = lastCheckpoint
        self.requests = requests
    }
}

extension PowerSync {
    /// The PowerSync profile's request payloads (docs/driver-protocol.md §11).
    public enum OpBody: Sendable, Hashable {
        /// Open the local database and connect.
        case attach(AttachRequest)
        /// A local write.
        case localWrite(PowerSync.LocalWrite)
        /// Upload the queue.
        case upload
        /// Read one sync stream until the service ends it.
        case sync
        /// Open the live sync stream and keep reading it in the background (`sync` with `"follow": true`).
        case follow
        /// Request a checkpoint.
        case requestCheckpoint
        /// Wait for a request.
        case waitForSync(WaitRequest)
        /// Disconnect.
        case disconnect
        /// Connect again.
        case reconnect
        /// Clear the local database.
        case localReset
        /// Report the state.
        case clientState(tables: [String]?)

        /// The operation.
        public var op: DriverOp {
            switch self {
            case .attach: .attach
            case .localWrite: .localWrite
            case .upload: .upload
            case .sync, .follow: .sync
            case .requestCheckpoint: .requestCheckpoint
            case .waitForSync: .waitForSync
            case .disconnect: .disconnect
            case .reconnect: .reconnect
            case .localReset: .localReset
            case .clientState: .clientState
            }
        }
    }
}

extension PowerSync {
    /// The PowerSync profile's answers.
    public enum OpResult: Sendable, Hashable {
        /// `attach`, `disconnect`, `reconnect`, `local-reset`: done.
        case done(DriverOp)
        /// `local-write`: the queue depth after it.
        case written(pendingUploads: Int)
        /// `upload`.
        case uploaded(UploadResult)
        /// `sync`.
        case synced(SyncResult)
        /// `request-checkpoint`: the answered id.
        case requested(checkpointRequestID: String)
        /// `wait-for-sync`: how it ended.
        case waited(PowerSync.WaitOutcome)
        /// `client-state`.
        case state(ClientStateResult)
    }
}

extension PowerSync.OpResult {
    /// The operation this answers.
    public var op: DriverOp {
        switch self {
        case .done(let op): op
        case .written: .localWrite
        case .uploaded: .upload
        case .synced: .sync
        case .requested: .requestCheckpoint
        case .waited: .waitForSync
        case .state: .clientState
        }
    }
}
