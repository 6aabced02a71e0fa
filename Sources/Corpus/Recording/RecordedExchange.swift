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
        let route = PowerSyncSurface.route(kind: rpc)
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
