import Corpus
import JSON
import KizunaWire
import PowerSyncWire

extension DriverRequest {
    /// Decodes one request line strictly: the JSON must be an object with a known `op`, every
    /// required key, the right types, and no other keys.
    /// - Parameter line: the line's bytes, without its newline.
    /// - Throws: `DriverError` with the code and pointer of the first problem.
    public init(line: [UInt8]) throws(DriverError) {
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser.parse(line)
        } catch {
            throw DriverError(.badJSON, at: .root, "not JSON: column \(error.column): \(error.reason)")
        }
        try self.init(json: json)
    }

    /// Decodes a parsed request strictly.
    /// - Parameter json: the request object.
    /// - Throws: `DriverError` with the code and pointer of the first problem.
    public init(json: JSONValue) throws(DriverError) {
        do {
            var reader = try ObjectReader(json, at: .root, malformed: .malformedRequest)
            let id = try Self.readID(&reader)
            let opText = try reader.string("op")
            guard let op = DriverOp(rawValue: opText) else {
                throw DriverError(.unknownOp, at: JSONPointer(tokens: ["op"]), "unknown op \"\(opText)\"")
            }
            let body: Body
            switch op {
            case .hello: body = .hello(protocolVersion: try reader.string("protocol"))
            case .open: body = .open(try OpenRequest(reading: &reader))
            case .write:
                let mutation = try Mutation(
                    json: try reader.required("mutation"), at: JSONPointer(tokens: ["mutation"]), malformed: .malformedRequest)
                if mutation.hlc != nil {
                    throw WireError(.malformedRequest, at: JSONPointer(tokens: ["mutation", "hlc"]), "unknown key \"hlc\"")
                }
                if mutation.baseHint != nil {
                    throw WireError(.malformedRequest, at: JSONPointer(tokens: ["mutation", "base_hint"]), "unknown key \"base_hint\"")
                }
                let group = try reader.optionalString("atomic_group")
                if let group, group.isEmpty {
                    throw WireError(.malformedRequest, at: JSONPointer(tokens: ["atomic_group"]), "an atomic group is never empty")
                }
                body = .write(WriteRequest(mutation: mutation, atomicGroup: group))
            case .push: body = .push
            case .pull:
                let maxPages = try reader.optionalInteger("max_pages")
                if let maxPages, maxPages < 1 {
                    throw WireError(.malformedRequest, at: JSONPointer(tokens: ["max_pages"]), "max_pages is at least 1")
                }
                body = .pull(PullOptions(maxPages: maxPages))
            case .state:
                var tables: [String]?
                if let value = reader.optional("tables") {
                    tables = try names(value, at: JSONPointer(tokens: ["tables"]))
                }
                body = .state(StateOptions(tables: tables))
            case .close: body = .close
            default: body = .powerSync(try PowerSync.OpBody(op: op, reading: &reader))
            }
            try reader.finish()
            self.init(id: id, body)
        } catch let error as DriverError {
            throw error
        } catch let error as WireError {
            throw DriverError.request(error)
        } catch {
            throw DriverError(.invalidValue, at: .root, String(describing: error))
        }
    }

    /// Reads the `id` of a line that may be malformed, so an error response can echo it.
    /// - Returns: the id, or nil when the line carries no valid id.
    public static func id(in json: JSONValue) -> Int? {
        guard let number = json["id"]?.numberValue, let id = number.intValue, id >= 0 else { return nil }
        return id
    }

    static func readID(_ reader: inout ObjectReader) throws(WireError) -> Int {
        let id = try reader.integer("id")
        if id < 0 { throw WireError(.malformedRequest, at: JSONPointer(tokens: ["id"]), "an id is a non-negative integer") }
        return id
    }

    /// The request as JSON, keys in canonical order.
    public var json: JSONValue {
        var object: JSONObject = ["id": .number(JSONNumber(id)), "op": .string(body.op.rawValue)]
        switch body {
        case .hello(let version): object["protocol"] = .string(version)
        case .open(let open):
            for member in open.jsonMembers.members { object[member.key] = member.value }
        case .write(let write):
            object["mutation"] = write.mutation.json
            if let group = write.atomicGroup { object["atomic_group"] = .string(group) }
        case .push, .close: break
        case .pull(let pull):
            if let maxPages = pull.maxPages { object["max_pages"] = .number(JSONNumber(maxPages)) }
        case .state(let state):
            if let tables = state.tables { object["tables"] = .array(tables.map { .string($0) }) }
        case .powerSync(let body):
            for member in body.members.members { object[member.key] = member.value }
        }
        return .object(object)
    }

    /// The request as one line: compact canonical JSON and a trailing newline.
    public var line: [UInt8] { DriverLine.encode(json) }
}

extension OpenRequest {
    init(reading reader: inout ObjectReader) throws(WireError) {
        store = try reader.string("store")
        if store.isEmpty { throw WireError(.malformedRequest, at: JSONPointer(tokens: ["store"]), "a store path is never empty") }
        baseURL = try reader.string("base_url")
        apikey = try reader.string("apikey")
        jwt = try reader.string("jwt")
        clientID = try reader.uuid("client_id")
        userID = try reader.uuid("user_id")
        schemaVersion = try reader.integer("schema_version")
        if schemaVersion < 1 {
            throw WireError(.malformedRequest, at: JSONPointer(tokens: ["schema_version"]), "schema_version is at least 1")
        }
        server = try ServerConfig(driverJSON: try reader.required("server"), at: JSONPointer(tokens: ["server"]))
        checkpoint = try reader.optionalString("checkpoint")
        if let checkpoint, (try? CursorToken(parsing: checkpoint)) == nil {
            throw WireError(.malformedRequest, at: JSONPointer(tokens: ["checkpoint"]), "\"\(checkpoint)\" is not a cursor token")
        }
        pullLimit = try reader.optionalInteger("pull_limit")
        if let pullLimit, pullLimit < 1 {
            throw WireError(.malformedRequest, at: JSONPointer(tokens: ["pull_limit"]), "pull_limit is at least 1")
        }
    }

    var jsonMembers: JSONObject {
        var object: JSONObject = [
            "apikey": .string(apikey), "base_url": .string(baseURL), "client_id": .string(clientID), "jwt": .string(jwt),
            "schema_version": .number(JSONNumber(schemaVersion)), "server": server.driverJSON, "store": .string(store),
            "user_id": .string(userID),
        ]
        if let checkpoint { object["checkpoint"] = .string(checkpoint) }
        if let pullLimit { object["pull_limit"] = .number(JSONNumber(pullLimit)) }
        return object
    }
}

extension ServerConfig {
    /// Reads the transcript `context.server` shape (transcript.schema.json#/$defs/context).
    init(driverJSON json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .malformedRequest)
        let minSchemaVersion = try reader.integer("min_schema_version")
        let ttl = try reader.integer("tombstone_ttl_days")
        let maxPullScan = try reader.optionalInteger("max_pull_scan")
        if let cap = maxPullScan, cap < 1 {
            throw WireError(.malformedRequest, at: pointer.appending("max_pull_scan"), "max_pull_scan is at least 1")
        }
        let tablesPointer = pointer.appending("tables")
        let tablesObject = try ObjectReader(try reader.required("tables"), at: tablesPointer, malformed: .malformedRequest).object
        var tables: [TableConfig] = []
        for member in tablesObject.members {
            let at = tablesPointer.appending(member.key)
            if !WireGrammar.isName(member.key) {
                throw WireError(.malformedRequest, at: at, "\"\(member.key)\" is not a table name")
            }
            var table = try ObjectReader(member.value, at: at, malformed: .malformedRequest)
            let bucket = try table.name("bucket_column")
            let mode = try table.optionalString("conflict_mode")
            if let mode, mode != "arrival" && mode != "hlc" {
                throw WireError(.malformedRequest, at: at.appending("conflict_mode"), "expected arrival|hlc, found \"\(mode)\"")
            }
            let journal = table.optional("conflict_journal")
            if let journal, journal.boolValue == nil { throw table.typeError("conflict_journal", "a boolean", journal) }
            var keys: [String]?
            if let value = table.optional("key_columns") {
                let names = try names(value, at: at.appending("key_columns"))
                if names.isEmpty { throw WireError(.malformedRequest, at: at.appending("key_columns"), "key_columns is never empty") }
                keys = names
            }
            let softDelete = table.has("soft_delete_column") ? try table.name("soft_delete_column") : nil
            try table.finish()
            tables.append(
                TableConfig(
                    table: member.key, bucketColumn: bucket, conflictMode: mode, conflictJournal: journal?.boolValue, keyColumns: keys,
                    softDeleteColumn: softDelete))
        }
        try reader.finish()
        self.init(synced: tables, minSchemaVersion: minSchemaVersion, tombstoneTTLDays: ttl, maxPullScan: maxPullScan)
    }

    var driverJSON: JSONValue {
        var tables = JSONObject()
        for table in self.tables {
            var object: JSONObject = ["bucket_column": .string(table.bucketColumn)]
            if let mode = table.conflictMode { object["conflict_mode"] = .string(mode) }
            if let journal = table.conflictJournal { object["conflict_journal"] = .bool(journal) }
            if let keys = table.keyColumns { object["key_columns"] = .array(keys.map { .string($0) }) }
            if let column = table.softDeleteColumn { object["soft_delete_column"] = .string(column) }
            tables[table.name] = .object(object)
        }
        var object: JSONObject = [
            "min_schema_version": .number(JSONNumber(minSchemaVersion)), "tables": .object(tables),
            "tombstone_ttl_days": .number(JSONNumber(tombstoneTTLDays)),
        ]
        if let maxPullScan { object["max_pull_scan"] = .number(JSONNumber(maxPullScan)) }
        return .object(object)
    }
}

/// Reads an array of table or column names.
func names(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> [String] {
    guard case .array(let elements) = value else {
        throw WireError(.malformedRequest, at: pointer, "expected an array of names, found \(value.typeName)")
    }
    var result: [String] = []
    for (index, element) in elements.enumerated() {
        guard case .string(let text) = element, WireGrammar.isName(text) else {
            throw WireError(.malformedRequest, at: pointer.appending(index), "expected a name ([a-z][a-z0-9_]*), found \(element.typeName)")
        }
        result.append(text)
    }
    return result
}

/// Line framing: compact canonical JSON and one newline.
public enum DriverLine {
    /// Encodes a value as one protocol line.
    /// - Returns: the compact sorted-key JSON followed by a newline.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        CanonicalJSON.writeCompact(value, into: &out)
        out.append(0x0A)
        return out
    }
}
