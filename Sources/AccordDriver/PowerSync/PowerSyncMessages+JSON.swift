import Corpus
import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync.OpBody {
    /// Reads the payload of a PowerSync op strictly (§11); unknown keys are left for the caller's `finish`.
    init(op: DriverOp, reading reader: inout ObjectReader) throws(WireError) {
        switch op {
        case .attach:
            let store = try reader.string("store")
            if store.isEmpty { throw WireError(.malformedRequest, at: JSONPointer(tokens: ["store"]), "a store path is never empty") }
            let mode = try reader.optional("checkpoint_mode").map { value throws(WireError) -> PowerSync.CheckpointMode in
                guard case .string(let text) = value, let mode = PowerSync.CheckpointMode(rawValue: text) else {
                    throw WireError(
                        .malformedRequest, at: JSONPointer(tokens: ["checkpoint_mode"]),
                        "checkpoint_mode is \"legacy\", \"requests\" or \"custom\"")
                }
                return mode
            }
            let backend = try reader.optional("checkpoint_backend").map { value throws(WireError) -> PowerSync.CheckpointBackend in
                var inner = try ObjectReader(value, at: JSONPointer(tokens: ["checkpoint_backend"]), malformed: .malformedRequest)
                let backend = PowerSync.CheckpointBackend(url: try inner.string("url"), token: try inner.string("token"))
                try inner.finish()
                return backend
            }
            if (mode == .custom) != (backend != nil) {
                throw WireError(
                    .malformedRequest, at: JSONPointer(tokens: ["checkpoint_backend"]),
                    "checkpoint_backend ({\"url\", \"token\"}) comes with checkpoint_mode \"custom\", and only with it")
            }
            self = .attach(
                AttachRequest(
                    store: store, baseURL: try reader.string("base_url"), token: try reader.string("token"),
                    userID: try reader.string("user_id"), clientID: try reader.string("client_id"), checkpointMode: mode ?? .legacy,
                    checkpointBackend: backend))
        case .localWrite:
            self = .localWrite(
                try PowerSync.LocalWrite(
                    json: try reader.required("write"), at: JSONPointer(tokens: ["write"]), malformed: .malformedRequest))
        case .upload: self = .upload
        case .sync:
            let follow = try reader.optional("follow").map { value throws(WireError) -> Bool in
                guard case .bool(let follow) = value else {
                    throw WireError(.malformedRequest, at: JSONPointer(tokens: ["follow"]), "follow is true or false")
                }
                return follow
            }
            self = follow == true ? .follow : .sync
        case .requestCheckpoint: self = .requestCheckpoint
        case .waitForSync:
            let id = try reader.string("checkpoint_request_id")
            let timeout = try reader.integer("timeout_ms")
            if timeout < 1 { throw WireError(.malformedRequest, at: JSONPointer(tokens: ["timeout_ms"]), "timeout_ms is at least 1") }
            self = .waitForSync(WaitRequest(checkpointRequestID: id, timeoutMilliseconds: timeout))
        case .disconnect: self = .disconnect
        case .reconnect: self = .reconnect
        case .localReset: self = .localReset
        case .clientState:
            self = .clientState(
                tables: try reader.optional("tables").map { v throws(WireError) in try names(v, at: JSONPointer(tokens: ["tables"])) })
        default:
            throw WireError(.malformedRequest, at: JSONPointer(tokens: ["op"]), "\(op.rawValue) is not a PowerSync op")
        }
    }

    /// The payload's members.
    var members: JSONObject {
        switch self {
        case .attach(let attach):
            {
                var members: JSONObject = [
                    "base_url": .string(attach.baseURL), "checkpoint_mode": .string(attach.checkpointMode.rawValue),
                    "client_id": .string(attach.clientID), "store": .string(attach.store),
                    "token": .string(attach.token), "user_id": .string(attach.userID),
                ]
                if let backend = attach.checkpointBackend {
                    members["checkpoint_backend"] = ["token": .string(backend.token), "url": .string(backend.url)]
                }
                return members
            }()
        case .localWrite(let write): ["write": write.json]
        case .waitForSync(let wait):
            ["checkpoint_request_id": .string(wait.checkpointRequestID), "timeout_ms": .number(JSONNumber(wait.timeoutMilliseconds))]
        case .clientState(let tables): tables.map { ["tables": .array($0.map { .string($0) })] } ?? JSONObject()
        case .follow: ["follow": true]
        case .upload, .sync, .requestCheckpoint, .disconnect, .reconnect, .localReset: JSONObject()
        }
    }
}

extension PowerSync.OpResult {
    /// The result object.
    var json: JSONValue {
        switch self {
        case .done: return .object(JSONObject())
        case .written(let depth): return ["pending_uploads": .number(JSONNumber(depth))]
        case .uploaded(let upload):
            var object: JSONObject = ["entries": .number(JSONNumber(upload.entries))]
            if let id = upload.checkpointRequestID { object["checkpoint_request_id"] = .string(id) }
            return .object(object)
        case .synced(let sync): return ["lines": .number(JSONNumber(sync.lines))]
        case .requested(let id): return ["checkpoint_request_id": .string(id)]
        case .waited(let outcome): return ["outcome": .string(outcome.rawValue)]
        case .state(let state):
            var rows = JSONObject()
            for (table, byID) in state.rows.sorted(by: { $0.key < $1.key }) {
                rows[table] = .object(JSONObject(pairs: byID.sorted { $0.key < $1.key }.map { ($0.key, .object($0.value)) }))
            }
            let requests = JSONObject(
                pairs: state.requests.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value ? "synced" : "pending")) })
            return [
                "last_checkpoint": state.lastCheckpoint.map { .string($0) } ?? .null,
                "pending_uploads": .number(JSONNumber(state.pendingUploads)), "requests": .object(requests), "rows": .object(rows),
            ]
        }
    }

    /// Reads a result object strictly for the PowerSync op it answers.
    init(reading reader: inout ObjectReader, answering op: DriverOp, at: JSONPointer) throws(WireError) {
        func count(_ key: String) throws(WireError) -> Int {
            let value = try reader.integer(key)
            if value < 0 { throw WireError(.malformedRequest, at: at.appending(key), "\(key) is never negative") }
            return value
        }
        switch op {
        case .localWrite: self = .written(pendingUploads: try count("pending_uploads"))
        case .upload:
            let entries = try count("entries")
            self = .uploaded(UploadResult(entries: entries, checkpointRequestID: try reader.optionalString("checkpoint_request_id")))
        case .sync: self = .synced(SyncResult(lines: try count("lines")))
        case .requestCheckpoint: self = .requested(checkpointRequestID: try reader.string("checkpoint_request_id"))
        case .waitForSync:
            let text = try reader.string("outcome")
            guard let outcome = PowerSync.WaitOutcome(rawValue: text) else {
                throw WireError(.malformedRequest, at: at.appending("outcome"), "expected a wait outcome, found \"\(text)\"")
            }
            self = .waited(outcome)
        case .clientState:
            var rows: [String: [String: JSONObject]] = [:]
            let rowsAt = at.appending("rows")
            for table in try ObjectReader(try reader.required("rows"), at: rowsAt, malformed: .malformedRequest).object.members {
                var byID: [String: JSONObject] = [:]
                for row in try ObjectReader(table.value, at: rowsAt.appending(table.key), malformed: .malformedRequest).object.members {
                    byID[row.key] = try ObjectReader(
                        row.value, at: rowsAt.appending(table.key).appending(row.key), malformed: .malformedRequest
                    )
                    .object
                }
                rows[table.key] = byID
            }
            let depth = try count("pending_uploads")
            let lastValue = try reader.required("last_checkpoint")
            if !lastValue.isNull && lastValue.stringValue == nil {
                throw reader.typeError("last_checkpoint", "a string or null", lastValue)
            }
            let last = lastValue.stringValue
            var requests: [String: Bool] = [:]
            let requestsAt = at.appending("requests")
            for member in try ObjectReader(try reader.required("requests"), at: requestsAt, malformed: .malformedRequest).object.members {
                guard let state = member.value.stringValue, state == "synced" || state == "pending" else {
                    throw WireError(.malformedRequest, at: requestsAt.appending(member.key), "expected \"synced\" or \"pending\"")
                }
                requests[member.key] = state == "synced"
            }
            self = .state(ClientStateResult(rows: rows, pendingUploads: depth, lastCheckpoint: last, requests: requests))
        default: self = .done(op)
        }
    }
}
