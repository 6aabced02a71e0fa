import JSON

/// `POST /sync/checkpoint-request`: the client submits its next checkpoint-request id; the
/// service keeps the greatest id per user and client and answers it.
public struct CheckpointRequest: Sendable, Hashable {
    /// The client id.
    public var clientID: String
    /// The submitted id, 1 through 2^63−1.
    public var id: OpID

    /// Makes a request.
    public init(clientID: String, id: OpID) {
        self.clientID = clientID
        self.id = id
    }

    /// Reads the request body as PowerSync's service does (`checkpointing.ts`,
    /// `CheckpointRequestPayload` with `allowAdditional: true`, and `codecs.bigint`): `client_id`
    /// a string, `checkpoint_request_id` a string of digits (leading zeros allowed) or a JSON
    /// number that is a safe integer (|n| ≤ 2^53−1, as JavaScript reads it: `1.0` and `1e3` are
    /// integers), either between 1 and 2^63−1; other members are allowed and ignored.
    /// - Throws: `PowerSync.ShapeError` (.malformedRequest), also for an id outside 1…2^63−1.
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedRequest)
        clientID = try reader.string("client_id")
        id = try Self.requestID(try reader.required("checkpoint_request_id"), at: pointer.appending("checkpoint_request_id"))
    }

    /// The greatest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
    static let maxSafeInteger: Double = 9_007_199_254_740_991

    /// Reads a checkpoint-request id as `codecs.bigint` decodes it, then checks 1…2^63−1.
    static func requestID(_ value: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) -> OpID {
        let digits: Substring
        switch value {
        case .string(let string):
            let negative = string.hasPrefix("-")
            let unsigned = negative ? string.dropFirst() : Substring(string)
            guard !unsigned.isEmpty, unsigned.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw PowerSync.ShapeError(
                    .malformedRequest, at: pointer, "a checkpoint-request id string is an integer in base 10, found \"\(string)\"")
            }
            if negative { throw Self.outOfRange(string, at: pointer) }
            digits = unsigned.drop { $0 == "0" }
        case .number(let number):
            guard let double = Double(number.literal), double == double.rounded(.towardZero), abs(double) <= Self.maxSafeInteger else {
                throw PowerSync.ShapeError(
                    .malformedRequest, at: pointer,
                    "a checkpoint-request id sent as a JSON number is a safe integer (at most 2^53−1); send a greater one as a string, found \(number.literal)"
                )
            }
            digits = Substring(String(Int64(double)))
        default:
            throw PowerSync.ShapeError(
                .malformedRequest, at: pointer, "a checkpoint-request id is a string or integer, found \(value.typeName)")
        }
        guard let id = OpID.parse(String(digits)), id.value >= 1 else {
            throw Self.outOfRange(value.stringValue ?? String(digits), at: pointer)
        }
        return id
    }

    private static func outOfRange(_ text: String, at pointer: JSONPointer) -> PowerSync.ShapeError {
        PowerSync.ShapeError(
            .malformedRequest, at: pointer, "expected a checkpoint-request id between 1 and 9223372036854775807, found \(text)")
    }
}

/// The answer to a checkpoint request: the id the service holds after it, as a string, in the
/// envelope every non-stream answer of PowerSync's service has (`route-register.ts`:
/// `{"data": …}`): `{"data": {"checkpoint_request_id": "43"}}`.
public struct CheckpointRequestAnswer: Sendable, Hashable {
    /// The held id: the greater of the submitted and the stored one.
    public var id: OpID

    /// Makes an answer.
    /// - Parameter id: the held id.
    public init(id: OpID) { self.id = id }

    /// Reads the answer body `{"data": {"checkpoint_request_id": "N"}}`; other members are allowed.
    /// - Throws: `PowerSync.ShapeError` (.malformedAnswer).
    public init(json: JSONValue, at pointer: JSONPointer = .root) throws(PowerSync.ShapeError) {
        id = try MemberReader.enveloped("checkpoint_request_id", in: json, at: pointer, kind: .malformedAnswer)
    }
}

extension CheckpointRequestAnswer {
    /// Reads what a team's custom checkpoint backend answers: the seed's
    /// `CustomCheckpointRequestConnector` returns the backend's id, whose wire form is the app's own;
    /// Accord's convention for such a backend (docs/powersync.md, "A custom checkpoint backend") is
    /// `{"checkpoint_request_id": N}`, N a digit string or a safe integer as a request sends it,
    /// or the service's `{"data": …}` envelope.
    /// - Parameter json: the answer body.
    /// - Throws: `PowerSync.ShapeError` (.malformedAnswer).
    public init(backend json: JSONValue) throws(PowerSync.ShapeError) {
        if json["data"] != nil {
            try self.init(json: json)
            return
        }
        var reader = try MemberReader(json, at: .root, kind: .malformedAnswer)
        let value = try reader.required("checkpoint_request_id")
        let id: OpID
        do throws(PowerSync.ShapeError) {
            id = try CheckpointRequest.requestID(value, at: JSONPointer(tokens: ["checkpoint_request_id"]))
        } catch {
            throw PowerSync.ShapeError(.malformedAnswer, at: error.pointer, error.detail)
        }
        self.init(id: id)
    }

    /// The answer as Accord's reference backend writes it: `{"checkpoint_request_id": "N"}`.
    public var backendJSON: JSONValue { .object(JSONObject(pairs: [("checkpoint_request_id", .string(id.description))])) }
}
