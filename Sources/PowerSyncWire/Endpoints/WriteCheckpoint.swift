import JSON

/// `GET /write-checkpoint2.json?client_id=…`: the service creates a write checkpoint for the
/// user and client and answers its id, which a later checkpoint line acknowledges.
public struct WriteCheckpointRequest: Sendable, Hashable {
    /// The client id, when sent.
    public var clientID: String?

    /// Makes a request.
    public init(clientID: String?) { self.clientID = clientID }

    /// Reads the query parameters as an object (`{"client_id": "…"}` or `{}`); other parameters
    /// are allowed, as the service allows them (`checkpointing.ts`, `allowAdditional: true`).
    /// - Parameters:
    ///   - json: the parameters.
    ///   - pointer: where they sit.
    /// - Throws: `PowerSync.ShapeError` (.malformedRequest).
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedRequest)
        clientID = try reader.optionalString("client_id")
    }
}

/// The answer of `/write-checkpoint2.json`, in the envelope of every non-stream answer
/// (`route-register.ts`): `{"data": {"write_checkpoint": "N"}}`.
public struct WriteCheckpointAnswer: Sendable, Hashable {
    /// The write checkpoint created.
    public var writeCheckpoint: OpID

    /// Makes an answer.
    /// - Parameter writeCheckpoint: the id.
    public init(writeCheckpoint: OpID) { self.writeCheckpoint = writeCheckpoint }

    /// Reads the answer body; other members are allowed.
    /// - Throws: `PowerSync.ShapeError` (.malformedAnswer).
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSync.ShapeError) {
        writeCheckpoint = try MemberReader.enveloped("write_checkpoint", in: json, at: pointer, kind: .malformedAnswer)
    }
}
