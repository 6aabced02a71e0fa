import JSON

/// The body of `POST /rest/v1/rpc/push`.
public struct PushRequest: WireMessage {
    /// Whether the batch commits all-or-nothing.
    public var atomic: Bool
    /// The mutations, in outbox order.
    public var mutations: [Mutation]
    /// The client's watermark: the last applied mutation id, or nil.
    public var lastMutationID: String?
    /// The client's schema version.
    public var schemaVersion: Int
    /// The client id; nil falls back to the JWT session_id claim.
    public var clientID: String?

    /// Makes a request.
    /// - Parameters:
    ///   - atomic: all-or-nothing.
    ///   - mutations: the mutations.
    ///   - lastMutationID: the watermark.
    ///   - schemaVersion: the schema version.
    ///   - clientID: the client id.
    public init(atomic: Bool, mutations: [Mutation], lastMutationID: String?, schemaVersion: Int, clientID: String? = nil) {
        self.atomic = atomic
        self.mutations = mutations
        self.lastMutationID = lastMutationID
        self.schemaVersion = schemaVersion
        self.clientID = clientID
    }

    /// Reads a push request strictly (push-request.schema.json).
    /// - Parameters:
    ///   - json: the message body.
    ///   - pointer: where the body sits.
    /// - Throws: `WireError` naming the protocol code and the offending value's pointer.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .malformedRequest)
        let batchPointer = pointer.appending("batch")
        var batch = try ObjectReader(try reader.required("batch"), at: batchPointer, malformed: .malformedRequest)
        self.atomic = try batch.bool("atomic")
        var mutations: [Mutation] = []
        for (index, element) in try batch.array("mutations").enumerated() {
            mutations.append(
                try Mutation(json: element, at: batchPointer.appending("mutations").appending(index), malformed: .malformedRequest))
        }
        try batch.finish()
        self.mutations = mutations
        guard let last = reader.optional("last_mutation_id") else {
            throw WireError(.malformedRequest, at: pointer, "missing required key \"last_mutation_id\"")
        }
        switch last {
        case .null: self.lastMutationID = nil
        case .string(let id) where WireGrammar.isUUID(id): self.lastMutationID = id
        case .string(let id):
            throw WireError(.malformedRequest, at: pointer.appending("last_mutation_id"), "\"\(id)\" is not a uuid")
        default: throw reader.typeError("last_mutation_id", "a string or null", last)
        }
        self.schemaVersion = try reader.integer("schema_version")
        if schemaVersion < 1 { throw WireError(.malformedRequest, at: pointer.appending("schema_version"), "schema_version is at least 1") }
        self.clientID = try reader.optionalUUID("client_id")
        try reader.finish()
    }

    /// The wire form, keys in canonical order.
    public var json: JSONValue {
        var object: JSONObject = ["batch": ["atomic": .bool(atomic), "mutations": .array(mutations.map(\.json))]]
        if let clientID { object["client_id"] = .string(clientID) }
        object["last_mutation_id"] = lastMutationID.map { .string($0) } ?? .null
        object["schema_version"] = .number(JSONNumber(schemaVersion))
        return .object(object)
    }
}
