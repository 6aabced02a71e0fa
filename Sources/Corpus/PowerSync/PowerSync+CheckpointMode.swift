import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// How a PowerSync client learns that the service has seen its writes (the core's
    /// `CheckpointMode`, `crates/core/src/sync/interface.rs` in powersync-sqlite-core): after an
    /// upload, `legacy` asks `GET /write-checkpoint2.json` for a write checkpoint; `requests` posts
    /// a client-allocated id to `POST /sync/checkpoint-request` and reconciles that counter with the
    /// service at every connect. Legacy is the core's default and what the SDKs ship; requests is the
    /// opt-in the seed calls `checkpointMode: .requests()`; custom is requests mode whose requests go
    /// to the app's own backend (the seed's `CustomCheckpointRequestConnector`), not the service.
    public enum CheckpointMode: String, Sendable, Hashable, CaseIterable {
        /// Write checkpoints from `/write-checkpoint2.json`; the app cannot request a checkpoint.
        case legacy
        /// Client-allocated checkpoint requests, reconciled at connect.
        case requests
        /// Requests mode, the requests posted to the app's checkpoint backend with the app's credential.
        case custom

        /// Whether the client allocates checkpoint requests (requests or custom).
        public var allocatesRequests: Bool { self != .legacy }

        /// Reads the optional top-level `checkpoint_mode` member (absent: legacy, as the core).
        static func read(_ reader: inout ObjectReader) throws(WireError) -> PowerSync.CheckpointMode {
            guard let value = reader.optional("checkpoint_mode") else { return .legacy }
            guard case .string(let text) = value, let mode = PowerSync.CheckpointMode(rawValue: text) else {
                throw WireError(
                    .json, at: JSONPointer(tokens: ["checkpoint_mode"]),
                    "checkpoint_mode is \"legacy\", \"requests\" or \"custom\", found \(CanonicalJSON.compact(value))")
            }
            return mode
        }
    }
}

extension PowerSync {
    /// A checkpoint exchange a client step puts on the service's wire: the app's checkpoint request,
    /// or what follows an accepted upload so that the checkpoints applied afterwards include the
    /// uploaded writes (its answer is the client's target, the core's `target_checkpoint_request_id`).
    public enum CheckpointCall: Sendable, Hashable {
        /// `POST /sync/checkpoint-request` with the client's next id (requests mode).
        case checkpointRequest(PowerSync.ExchangePair)
        /// `GET /write-checkpoint2.json?client_id=…` (legacy mode; the request is the query as an object).
        case writeCheckpoint(PowerSync.ExchangePair)

        /// The id the answer names: the answered checkpoint request id or write checkpoint.
        public var answeredID: String? {
            switch self {
            case .checkpointRequest(let pair): pair.response["data"]?["checkpoint_request_id"]?.stringValue
            case .writeCheckpoint(let pair): pair.response["data"]?["write_checkpoint"]?.stringValue
            }
        }
    }
}

extension PowerSync {
    /// Where a client in custom mode posts its checkpoint requests: the app's backend route and the
    /// app's own credential for it (the seed: `postCheckpointRequest()` does not receive the
    /// PowerSync sync token).
    public struct CheckpointBackend: Sendable, Hashable {
        /// The route's URL.
        public var url: String
        /// The app's credential, sent as `Authorization: Bearer`.
        public var token: String

        /// Makes a backend.
        public init(url: String, token: String) {
            self.url = url
            self.token = token
        }
    }
}
