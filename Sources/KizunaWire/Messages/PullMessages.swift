import JSON

/// One pull bucket: a table and its parameter equalities.
public struct Bucket: Sendable, Hashable {
    /// The table.
    public var table: String
    /// Column equalities, e.g. `{"owner_id": "<user>"}`.
    public var params: JSONObject

    /// Makes a bucket.
    /// - Parameters:
    ///   - table: the table.
    ///   - params: the parameters.
    public init(table: String, params: JSONObject) {
        self.table = table
        self.params = params
    }
}

/// The body of `POST /rest/v1/rpc/pull`.
public struct PullRequest: WireMessage {
    /// The requested buckets (at most 64).
    public var buckets: [Bucket]
    /// The cursor to continue from ("0" bootstraps).
    public var cursor: CursorToken
    /// The client's schema version.
    public var schemaVersion: Int
    /// The page size; nil means the server default (500).
    public var limit: Int?
    /// The client id; nil falls back to the JWT session_id claim.
    public var clientID: String?

    /// Makes a request.
    public init(buckets: [Bucket], cursor: CursorToken, schemaVersion: Int, limit: Int? = nil, clientID: String? = nil) {
        self.buckets = buckets
        self.cursor = cursor
        self.schemaVersion = schemaVersion
        self.limit = limit
        self.clientID = clientID
    }

    /// Reads a pull request strictly (pull-request.schema.json).
    /// - Parameters:
    ///   - json: the message body.
    ///   - pointer: where the body sits.
    /// - Throws: `WireError` naming the protocol code and the offending value's pointer.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .malformedRequest)
        var buckets: [Bucket] = []
        let rawBuckets = try reader.array("buckets")
        if rawBuckets.count > 64 {
            throw WireError(
                .malformedRequest, at: pointer.appending("buckets"), "a pull names at most 64 buckets, found \(rawBuckets.count) (22023)")
        }
        for (index, element) in rawBuckets.enumerated() {
            let at = pointer.appending("buckets").appending(index)
            var bucket = try ObjectReader(element, at: at, malformed: .malformedRequest)
            let table = try bucket.name("table")
            let params = try ObjectReader(try bucket.required("params"), at: at.appending("params"), malformed: .malformedRequest).object
            for member in params.members {
                switch member.value {
                case .string, .bool: continue
                case .number(let number) where number.isInteger: continue
                default:
                    throw WireError(
                        .malformedRequest, at: at.appending("params").appending(member.key),
                        "a bucket parameter is a string, integer or boolean, found \(member.value.typeName)")
                }
            }
            try bucket.finish()
            buckets.append(Bucket(table: table, params: params))
        }
        self.buckets = buckets
        self.cursor = try CursorField.read(&reader, "cursor")
        self.schemaVersion = try reader.integer("schema_version")
        if schemaVersion < 1 { throw WireError(.malformedRequest, at: pointer.appending("schema_version"), "schema_version is at least 1") }
        self.limit = try reader.optionalInteger("limit")
        if let limit, limit < 1 { throw WireError(.malformedRequest, at: pointer.appending("limit"), "limit is at least 1") }
        self.clientID = try reader.optionalUUID("client_id")
        try reader.finish()
    }

    /// The wire form, keys in canonical order.
    public var json: JSONValue {
        var object: JSONObject = [
            "buckets": .array(buckets.map { ["params": .object($0.params), "table": .string($0.table)] })
        ]
        if let clientID { object["client_id"] = .string(clientID) }
        object["cursor"] = .string(cursor.description)
        if let limit { object["limit"] = .number(JSONNumber(limit)) }
        object["schema_version"] = .number(JSONNumber(schemaVersion))
        return .object(object)
    }
}

enum CursorField {
    static func read(_ reader: inout ObjectReader, _ key: String) throws(WireError) -> CursorToken {
        let text = try reader.string(key)
        do {
            return try CursorToken(parsing: text)
        } catch {
            throw WireError(.malformedCursor, at: reader.pointer.appending(key), "\"\(text)\" is not a canonical cursor token")
        }
    }

    static func sequence(_ reader: inout ObjectReader, _ key: String) throws(WireError) -> SequenceNumber {
        let text = try reader.string(key)
        guard let seq = SequenceNumber(text) else {
            throw WireError(reader.malformed, at: reader.pointer.appending(key), "\"\(text)\" is not a decimal seq string")
        }
        return seq
    }
}
