import JSON
import KizunaWire
import PowerSyncWire

/// One recorded HTTP exchange.
public struct RecordedExchange: Sendable, Hashable {
    /// The exchange's number in the recording, from 1.
    public var number: Int
    /// Milliseconds from the start of recording to the request.
    public var atMilliseconds: Double
    /// Milliseconds from request to the end of the response.
    public var durationMilliseconds: Double
    /// The user (JWT `sub`), unverified.
    public var user: String?
    /// The client (request `client_id`, else JWT `session_id`), unverified.
    public var client: String?
    /// "pull", "push", a PowerSync route's kind ("sync-stream", "checkpoint-request",
    /// "write-checkpoint"), or "http" for other paths.
    public var rpc: String
    /// The request method.
    public var method: String
    /// The request path and query.
    public var path: String
    /// The HTTP status.
    public var status: Int
    /// Redacted request headers.
    public var requestHeaders: JSONObject
    /// Redacted response headers.
    public var responseHeaders: JSONObject
    /// The request body as JSON (null when empty or not JSON).
    public var request: JSONValue
    /// The response body as JSON (null when empty or not JSON); a PowerSync sync stream's 2xx
    /// answer is the array of its NDJSON lines.
    public var response: JSONValue
    /// The line the exchange sits on, set when read.
    public var line: Int
    /// For a sync stream's answer recorded as lines, when each NDJSON line arrived, in
    /// milliseconds from the start of recording (line *k* at index *k − 1*, as `response`):
    /// `line_ms`, so a reader can place the exchanges made while the stream was open. Nil when
    /// not recorded (other exchanges, recordings made before it).
    public var lineMilliseconds: [Double]?

    /// Makes an exchange.
    /// - Parameters:
    ///   - number: the exchange number.
    ///   - rpc: "pull", "push", a PowerSync route's kind or "http" (its method and path follow).
    ///   - request: the request body.
    ///   - response: the response body.
    ///   - status: the HTTP status.
    public init(number: Int, rpc: String, request: JSONValue, response: JSONValue, status: Int = 200) {
        self.number = number
        self.atMilliseconds = 0
        self.durationMilliseconds = 0
        self.user = nil
        self.client = nil
        self.rpc = rpc
        let route = PowerSync.Surface.route(kind: rpc)
        self.method = route?.method ?? "POST"
        self.path = route?.path ?? (rpc == "http" ? "/" : PostgRESTSurface.rpcPath(rpc))
        self.status = status
        self.requestHeaders = JSONObject()
        self.responseHeaders = JSONObject()
        self.request = request
        self.response = response
        self.line = 0
        self.lineMilliseconds = nil
    }
}

extension RecordedExchange {
    /// Why this exchange's recorded answer is not the service's to replay, when it is not: the
    /// recording proxy answered it itself (`:accord-error`, e.g. a 502 while the upstream was down),
    /// or the answer depends on a credential a replay cannot reproduce (a 401 for an expired or
    /// foreign token: a replay mints a valid JWT for the recorded identity). A replay reports such
    /// an exchange skipped with this reason and sends nothing; world inference ignores it.
    public var unreplayableReason: String? {
        if let note = responseHeaders[":accord-error"]?.stringValue {
            return "the recording proxy answered this exchange itself (HTTP \(status): \(note)); it is not the service's answer"
        }
        if status == 401 {
            let code = response["code"]?.stringValue.map { " \($0)" } ?? ""
            return
                "the service refused the recorded credential (HTTP 401\(code)); a replay mints a valid JWT for the recorded identity, so the refusal cannot be reproduced"
        }
        return nil
    }
}

extension RecordedExchange {
    /// Header fields as a recording holds them: names as written, in order of first appearance,
    /// a repeated name as an array of its values in order. Shared by the proxy and HAR import;
    /// the values are as given (redact with `Redactor.headers(_:)`).
    /// - Parameter fields: the fields in wire order.
    /// - Returns: the header object.
    public static func headerObject(_ fields: [(name: String, value: String)]) -> JSONObject {
        var object = JSONObject(capacity: fields.count)
        var position: [String: Int] = [:]
        var repeated: [Int: [JSONValue]] = [:]
        for (name, value) in fields {
            if let index = position[name] {
                repeated[index, default: [object.members[index].value]].append(.string(value))
            } else {
                position[name] = object.count
                object.append(name, .string(value))
            }
        }
        for (index, values) in repeated { object.members[index].value = .array(values) }
        return object
    }
}
