import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// A local write on a PowerSync client: PowerSync's CRUD shape, `op` PUT, PATCH or DELETE on
    /// one row (`table`, `id`), with `data` for PUT and PATCH.
    public struct LocalWrite: Sendable, Hashable {
        /// The CRUD operations a local write can be.
        public enum Op: String, Sendable, Hashable, CaseIterable {
            /// Insert or replace the row.
            case put = "PUT"
            /// Update columns of the row.
            case patch = "PATCH"
            /// Delete the row.
            case delete = "DELETE"
        }

        /// The operation.
        public var op: Op
        /// The table (PowerSync's `object_type`).
        public var table: String
        /// The row id (PowerSync's `object_id`).
        public var id: String
        /// The columns written; nil for DELETE.
        public var data: JSONObject?

        /// Makes a write.
        /// - Parameters:
        ///   - op: the operation.
        ///   - table: the table.
        ///   - id: the row id.
        ///   - data: the columns, nil for DELETE.
        public init(op: Op, table: String, id: String, data: JSONObject?) {
            self.op = op
            self.table = table
            self.id = id
            self.data = data
        }

        /// Reads `{"op", "table", "id", "data"?}` strictly.
        /// - Parameters:
        ///   - json: the write object.
        ///   - pointer: where it sits.
        ///   - malformed: the error kind for a bad value.
        /// - Throws: `WireError` of kind `malformed` with the pointer of the offending value.
        public init(json: JSONValue, at pointer: JSONPointer, malformed: WireError.Kind = .json) throws(WireError) {
            var reader = try ObjectReader(json, at: pointer, malformed: malformed)
            let text = try reader.string("op")
            guard let op = Op(rawValue: text) else {
                throw WireError(malformed, at: pointer.appending("op"), "expected PUT|PATCH|DELETE, found \"\(text)\"")
            }
            self.op = op
            table = try reader.string("table")
            if !WireGrammar.isName(table) { throw WireError(malformed, at: pointer.appending("table"), "\"\(table)\" is not a table name") }
            id = try reader.string("id")
            if id.isEmpty { throw WireError(malformed, at: pointer.appending("id"), "a row id is never empty") }
            data = try reader.optionalColumns("data")
            if (op == .delete) != (data == nil) {
                throw WireError(
                    malformed, at: pointer.appending("data"), op == .delete ? "a DELETE carries no data" : "a \(text) carries data")
            }
            try reader.finish()
        }

        /// The write as JSON, in the shape it is read from.
        public var json: JSONValue {
            var object: JSONObject = ["op": .string(op.rawValue), "table": .string(table), "id": .string(id)]
            if let data { object["data"] = .object(data) }
            return .object(object)
        }
    }
}

extension PowerSync {
    /// What a `stream-fault` step's mock service does to the sync stream.
    public enum StreamFault: Sendable, Hashable {
        /// It plays these lines, whose checkpoint checksums do not match their ops on purpose: the
        /// client must discard the bucket's pending data and sync it again.
        case checksumMismatch(lines: [JSONValue])
        /// It answers the stream request with this HTTP status and no lines: a download error.
        case httpError(status: Int)

        init(reading reader: inout ObjectReader, at pointer: JSONPointer) throws(WireError) {
            let fault = try reader.string("fault")
            switch fault {
            case "checksum-mismatch":
                let lines = try reader.array("lines")
                if lines.isEmpty { throw WireError(.json, at: pointer.appending("lines"), "a sync stream has at least one line") }
                self = .checksumMismatch(lines: lines)
            case "http-error":
                let status = try reader.integer("status")
                if !(400...599).contains(status) {
                    throw WireError(.json, at: pointer.appending("status"), "an http-error status is 400-599")
                }
                self = .httpError(status: status)
            default:
                throw WireError(.json, at: pointer.appending("fault"), "expected checksum-mismatch|http-error, found \"\(fault)\"")
            }
        }
    }
}

extension PowerSync {
    /// What an `assert-client` step expects of the client's state; each member is optional and
    /// only the members present are checked (at least one is).
    public struct ClientExpectation: Sendable, Hashable {
        /// Table → row id → the row's columns, or nil for a row that must be absent.
        public var rows: [String: [String: JSONObject?]]?
        /// The upload queue depth.
        public var pendingUploads: Int?
        /// The `last_op_id` of the last checkpoint applied, or `.some(nil)` for none yet.
        public var lastCheckpoint: String??
        /// Checkpoint-request id → whether it is synced.
        public var requests: [String: Bool]?

        /// Makes an expectation.
        /// - Parameters:
        ///   - rows: the rows.
        ///   - pendingUploads: the upload queue depth.
        ///   - lastCheckpoint: the last applied checkpoint.
        ///   - requests: the requests' synced states.
        public init(
            rows: [String: [String: JSONObject?]]? = nil, pendingUploads: Int? = nil, lastCheckpoint: String?? = nil,
            requests: [String: Bool]? = nil
        ) {
            self.rows = rows
            self.pendingUploads = pendingUploads
            self.lastCheckpoint = lastCheckpoint
            self.requests = requests
        }

        init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
            var reader = try ObjectReader(json, at: pointer, malformed: .json)
            if let value = reader.optional("rows") {
                var tables: [String: [String: JSONObject?]] = [:]
                for table in try ObjectReader(value, at: pointer.appending("rows"), malformed: .json).object.members {
                    var rows: [String: JSONObject?] = [:]
                    let at = pointer.appending("rows").appending(table.key)
                    for row in try ObjectReader(table.value, at: at, malformed: .json).object.members {
                        if case .null = row.value {
                            rows[row.key] = .some(nil)
                        } else {
                            rows[row.key] = try ObjectReader(row.value, at: at.appending(row.key), malformed: .json).object
                        }
                    }
                    tables[table.key] = rows
                }
                self.rows = tables
            }
            pendingUploads = try reader.optionalInteger("pending_uploads")
            if reader.has("last_checkpoint") { lastCheckpoint = .some(try reader.optionalString("last_checkpoint", allowNull: true)) }
            if let value = reader.optional("requests") {
                var requests: [String: Bool] = [:]
                for member in try ObjectReader(value, at: pointer.appending("requests"), malformed: .json).object.members {
                    guard let state = member.value.stringValue, state == "synced" || state == "pending" else {
                        throw WireError(
                            .json, at: pointer.appending("requests").appending(member.key), "expected \"synced\" or \"pending\"")
                    }
                    requests[member.key] = state == "synced"
                }
                self.requests = requests
            }
            try reader.finish()
            if rows == nil && pendingUploads == nil && lastCheckpoint == nil && requests == nil {
                throw WireError(
                    .json, at: pointer, "an assert-client step expects at least one of rows, pending_uploads, last_checkpoint, requests")
            }
        }
    }
}
