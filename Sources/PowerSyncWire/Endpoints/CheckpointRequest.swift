import KizunaWire

/// `POST /sync/checkpoint-request`: the client submits its next checkpoint-request id; the
/// service keeps the greatest id per user and client and answers it.
public struct CheckpointRequest: Sendable, Hashable {
    /// The client id.
    public var clientID: String
    /// The submitted id, 1 through 2^63−1.
    public var id: OpID

    /// Makes a request.
    /// - Parameters:
    ///   - clientID: the client.
    ///   - id: the submitted id.
    public init(clientID: String, id: OpID) {
        self.clientID = clientID
        self.id = id
    }

    /// Reads the request body: `client_id`, and `checkpoint_request_id` as a base-10 string or
    /// an integer (the service accepts both; ids past 2^53 must be strings to stay exact in
    /// JavaScript, and stay exact here either way).
    /// - Parameters:
    ///   - json: the body.
    ///   - pointer: where it sits.
    /// - Throws: `PowerSyncWireError` (.malformedRequest), also for an id outside 1…2^63−1.
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSyncWireError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedRequest)
        clientID = try reader.string("client_id")
        id = try Self.requestID(try reader.required("checkpoint_request_id"), at: pointer.appending("checkpoint_request_id"))
        try reader.finish()
    }

    /// Reads a checkpoint-request id: a string or integer of 1 through 2^63−1.
    static func requestID(_ value: JSONValue, at pointer: JSONPointer) throws(PowerSyncWireError) -> OpID {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number) where number.isInteger: text = number.literal
        default:
            throw PowerSyncWireError(
                .malformedRequest, at: pointer, "a checkpoint-request id is a string or integer, found \(value.typeName)")
        }
        guard let id = OpID.parse(text), id.value >= 1 else {
            throw PowerSyncWireError(
                .malformedRequest, at: pointer, "expected a checkpoint-request id between 1 and 9223372036854775807, found \(text)")
        }
        return id
    }
}

/// The answer to a checkpoint request: the id the service holds after it, as a string.
public struct CheckpointRequestAnswer: Sendable, Hashable {
    /// The held id: the greater of the submitted and the stored one.
    public var id: OpID

    /// Makes an answer.
    /// - Parameter id: the held id.
    public init(id: OpID) { self.id = id }

    /// Reads the answer body `{"checkpoint_request_id": "N"}`.
    /// - Parameters:
    ///   - json: the body.
    ///   - pointer: where it sits.
    /// - Throws: `PowerSyncWireError` (.malformedAnswer).
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSyncWireError) {
        id = try MemberReader.soleOpID("checkpoint_request_id", in: json, at: pointer, kind: .malformedAnswer)
    }
}
