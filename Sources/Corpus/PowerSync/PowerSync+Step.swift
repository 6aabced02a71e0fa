import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// One step of a PowerSync transcript with its dense, one-based number. Payloads stay JSON so
    /// that a malformed line is a finding for the rules (PS-SHAPE), not a load error.
    public struct Step: Sendable, Hashable {
        /// The step kinds.
        public enum Action: Sendable, Hashable {
            /// `POST /sync/stream`: the request body and the NDJSON answer, one JSON value a line.
            case syncStream(request: JSONValue, lines: [JSONValue])
            /// `POST /sync/checkpoint-request`: the submitted id and the id the service answers.
            case checkpointRequest(request: JSONValue, response: JSONValue)
            /// `GET /write-checkpoint2.json`: the query parameters as an object, and the answer.
            case writeCheckpoint(request: JSONValue, response: JSONValue)
            /// A client-side step (local write, upload, request a checkpoint, wait for sync, …),
            /// played by the client lane (`PowerSync.ClientAction`).
            case client(PowerSync.ClientAction)
            /// Source side (server lane): a transaction committed in the service's source database.
            case source(SourceCommit)
            /// Source side (server lane): the service's replication catches up with the source.
            case replicate(during: StreamMoment?)
        }

        /// The step number `n`.
        public var n: Int
        /// What the step does.
        public var action: Action
        /// For a `checkpoint-request` step (`"reconcile": true`): the client's reconcile at connect,
        /// which a client in requests mode posts on its own, with `max(last requested, target, 1)`,
        /// when it opens a stream or first needs an id after attach, reconnect or a local reset
        /// (powersync-sqlite-core `docs/write-checkpoint-requests.md`). The client lane expects it
        /// within the next step that reaches the service; the server lane and `accord check` judge it
        /// as any checkpoint request.
        public var reconcile = false

        /// Makes a step.
        /// - Parameters:
        ///   - n: the number.
        ///   - action: what it does.
        ///   - reconcile: whether it is a client's reconcile at connect.
        public init(n: Int, action: Action, reconcile: Bool = false) {
            self.n = n
            self.action = action
            self.reconcile = reconcile
        }

        /// The step kind as the grammar writes it: "sync-stream", "checkpoint-request", "write-checkpoint".
        public var label: String {
            switch action {
            case .syncStream: "sync-stream"
            case .checkpointRequest: "checkpoint-request"
            case .writeCheckpoint: "write-checkpoint"
            case .client(let client): client.label
            case .source: "source"
            case .replicate: "replicate"
            }
        }

        /// Reads one step by its `kind` (docs/powersync.md, "Transcript grammar").
        /// - Parameters:
        ///   - json: the step object.
        ///   - pointer: where it sits, e.g. /steps/2.
        /// - Throws: `WireError` (.json) with the pointer of the offending value.
        public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
            var reader = try ObjectReader(json, at: pointer, malformed: .json)
            let kind = try reader.string("kind")
            n = try reader.integer("n")
            if PowerSync.ClientAction.kinds.contains(kind) {
                action = .client(try PowerSync.ClientAction(kind: kind, reading: &reader, at: pointer))
                try reader.finish()
                return
            }
            if let source = try Self.sourceAction(kind: kind, &reader, at: pointer) {
                action = source
                try reader.finish()
                return
            }
            let request = try reader.required("request")
            if request.objectValue == nil { throw reader.typeError("request", "an object", request) }
            switch kind {
            case "sync-stream":
                let lines = try reader.array("lines")
                if lines.isEmpty { throw WireError(.json, at: pointer.appending("lines"), "a sync stream has at least one line") }
                action = .syncStream(request: request, lines: lines)
            case "checkpoint-request", "write-checkpoint":
                if kind == "checkpoint-request", let flag = reader.optional("reconcile") {
                    guard case .bool(let value) = flag else { throw reader.typeError("reconcile", "true or false", flag) }
                    reconcile = value
                }
                let response = try reader.required("response")
                if response.objectValue == nil { throw reader.typeError("response", "an object", response) }
                action =
                    kind == "checkpoint-request"
                    ? .checkpointRequest(request: request, response: response) : .writeCheckpoint(request: request, response: response)
            default:
                throw WireError(
                    .json, at: pointer.appending("kind"),
                    "unknown PowerSync step kind \"\(kind)\" (expected sync-stream|checkpoint-request|write-checkpoint|source|replicate|"
                        + PowerSync.ClientAction.kinds.sorted().joined(separator: "|") + ")")
            }
            try reader.finish()
        }
    }
}
