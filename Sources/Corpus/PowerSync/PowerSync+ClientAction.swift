import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// The client-side step kinds of a PowerSync transcript (docs/powersync.md, "Client steps"):
    /// what the app asks of the client, the answers the mock service plays to it, and what the
    /// client's state must then be. The client lane plays them through a PowerSync driver; the PS
    /// rules do not see them (they are not exchanges of the service), so `accord check` reports
    /// them skipped, naming the client lane.
    public enum ClientAction: Sendable, Hashable {
        /// A local write and its upload queue entry; `pendingUploads` is the queue depth after it.
        case localWrite(PowerSync.LocalWrite, pendingUploads: Int)
        /// The client uploads its whole queue: `request` is the batch it must send
        /// (`{"crud": [...]}`), `response` the backend's answer (`{"status": N}`); after a
        /// successful upload the client asks for its target, `target`: its own checkpoint request
        /// (requests mode) or a write checkpoint (legacy mode).
        case upload(request: JSONValue, response: JSONValue, target: PowerSync.CheckpointCall?)
        /// The app requests a checkpoint: the `POST /sync/checkpoint-request` body the client must
        /// send and the id the service answers.
        case requestCheckpoint(request: JSONValue, response: JSONValue)
        /// The app requests a checkpoint from a client whose checkpoint mode is legacy: the driver
        /// refuses it with `code` (REQUESTS_OFF) and sends nothing.
        case requestCheckpointRefused(code: String)
        /// The app waits for the request the service answered `requestID` to sync, for at most
        /// `timeoutMilliseconds`; `expect` is how the wait must end.
        case waitForSync(requestID: String, timeoutMilliseconds: Int, expect: PowerSync.WaitOutcome)
        /// The app disconnects the client from the service.
        case disconnect
        /// The app connects the client again.
        case reconnect
        /// The app clears the local database (rows, buckets, upload queue, request counter).
        case localReset
        /// A sync stream that fails on purpose: its `request` as the client must send it, and
        /// the fault the mock service plays.
        case streamFault(request: JSONValue, fault: PowerSync.StreamFault)
        /// The client's state must be this.
        case assertClient(PowerSync.ClientExpectation)

        /// The step kind as the grammar writes it.
        public var label: String {
            switch self {
            case .localWrite: "local-write"
            case .upload: "upload"
            case .requestCheckpoint, .requestCheckpointRefused: "request-checkpoint"
            case .waitForSync: "wait-for-sync"
            case .disconnect: "disconnect"
            case .reconnect: "reconnect"
            case .localReset: "local-reset"
            case .streamFault: "stream-fault"
            case .assertClient: "assert-client"
            }
        }

        /// The checkpoint exchange this step puts on the service's wire, or nil: the app's checkpoint
        /// request, or the client's target after an accepted upload. The server lane plays it against
        /// the service and `accord check` judges it with the PS rules; every other client step is
        /// between the app, the client and the app backend.
        public var checkpointCall: PowerSync.CheckpointCall? {
            switch self {
            case .requestCheckpoint(let request, let response):
                .checkpointRequest(PowerSync.ExchangePair(request: request, response: response))
            case .upload(_, _, let target): target
            case .localWrite, .requestCheckpointRefused, .waitForSync, .disconnect, .reconnect, .localReset, .streamFault, .assertClient:
                nil
            }
        }

        /// The client step kinds.
        public static let kinds: Set<String> = [
            "local-write", "upload", "request-checkpoint", "wait-for-sync", "disconnect", "reconnect", "local-reset", "stream-fault",
            "assert-client",
        ]

        /// Reads a client step's members after its `kind` and `n`.
        /// - Parameters:
        ///   - kind: the step kind, one of `kinds`.
        ///   - reader: the step object's reader.
        ///   - pointer: where the step sits.
        /// - Throws: `WireError` (.json) with the pointer of the offending value.
        public init(kind: String, reading reader: inout ObjectReader, at pointer: JSONPointer) throws(WireError) {
            switch kind {
            case "local-write":
                let write = try PowerSync.LocalWrite(json: try reader.required("write"), at: pointer.appending("write"))
                let depth = try reader.integer("pending_uploads")
                if depth < 0 { throw WireError(.json, at: pointer.appending("pending_uploads"), "pending_uploads is never negative") }
                self = .localWrite(write, pendingUploads: depth)
            case "upload":
                let pair = try PowerSync.ExchangePair(reading: &reader, at: pointer)
                if pair.request["crud"]?.arrayValue == nil {
                    throw WireError(.json, at: pointer.appending("request").appending("crud"), "an upload request has a crud array")
                }
                if pair.response["status"]?.numberValue?.intValue == nil {
                    throw WireError(
                        .json, at: pointer.appending("response").appending("status"), "an upload response has an integer status")
                }
                func exchange(_ key: String) throws(WireError) -> PowerSync.ExchangePair? {
                    try reader.optional(key).map { value throws(WireError) in
                        var inner = try ObjectReader(value, at: pointer.appending(key), malformed: .json)
                        let pair = try PowerSync.ExchangePair(reading: &inner, at: pointer.appending(key))
                        try inner.finish()
                        return pair
                    }
                }
                let target: PowerSync.CheckpointCall?
                switch (try exchange("checkpoint_request"), try exchange("write_checkpoint")) {
                case (let own?, nil): target = .checkpointRequest(own)
                case (nil, let written?): target = .writeCheckpoint(written)
                case (nil, nil): target = nil
                case (.some, .some):
                    throw WireError(
                        .json, at: pointer.appending("write_checkpoint"),
                        "an upload is followed by a checkpoint_request (requests mode) or a write_checkpoint (legacy mode), not both")
                }
                self = .upload(request: pair.request, response: pair.response, target: target)
            case "request-checkpoint":
                if let code = reader.optional("expect_error") {
                    guard case .string(let text) = code, !text.isEmpty else {
                        throw reader.typeError("expect_error", "an error code", code)
                    }
                    self = .requestCheckpointRefused(code: text)
                    return
                }
                let pair = try PowerSync.ExchangePair(reading: &reader, at: pointer)
                self = .requestCheckpoint(request: pair.request, response: pair.response)
            case "wait-for-sync":
                let id = try reader.string("request_id")
                let timeout = try reader.integer("timeout_ms")
                if timeout < 1 { throw WireError(.json, at: pointer.appending("timeout_ms"), "timeout_ms is at least 1") }
                let text = try reader.string("expect")
                guard let expect = PowerSync.WaitOutcome(rawValue: text) else {
                    throw WireError(
                        .json, at: pointer.appending("expect"),
                        "expected resolved|timeout|disconnected|upload-error|download-error, found \"\(text)\"")
                }
                self = .waitForSync(requestID: id, timeoutMilliseconds: timeout, expect: expect)
            case "disconnect": self = .disconnect
            case "reconnect": self = .reconnect
            case "local-reset": self = .localReset
            case "stream-fault":
                let request = try reader.required("request")
                if request.objectValue == nil { throw reader.typeError("request", "an object", request) }
                self = .streamFault(request: request, fault: try PowerSync.StreamFault(reading: &reader, at: pointer))
            default:
                self = .assertClient(try PowerSync.ClientExpectation(json: try reader.required("expect"), at: pointer.appending("expect")))
            }
        }
    }
}

extension PowerSync {
    /// A request body and its answer, both JSON objects.
    public struct ExchangePair: Sendable, Hashable {
        /// The request body.
        public var request: JSONValue
        /// The answer.
        public var response: JSONValue

        /// Makes a pair.
        public init(request: JSONValue, response: JSONValue) {
            self.request = request
            self.response = response
        }

        init(reading reader: inout ObjectReader, at pointer: JSONPointer) throws(WireError) {
            request = try reader.required("request")
            if request.objectValue == nil { throw reader.typeError("request", "an object", request) }
            response = try reader.required("response")
            if response.objectValue == nil { throw reader.typeError("response", "an object", response) }
        }
    }
}

extension PowerSync {
    /// How a `wait-for-sync` ends: the four failures are distinct.
    public enum WaitOutcome: String, Sendable, Hashable, CaseIterable {
        /// A checkpoint covering the request was completely applied.
        case resolved
        /// The timeout passed first.
        case timeout
        /// The client is disconnected.
        case disconnected
        /// The last upload failed.
        case uploadError = "upload-error"
        /// The last sync stream failed.
        case downloadError = "download-error"
    }
}
