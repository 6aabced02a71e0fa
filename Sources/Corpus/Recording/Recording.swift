import KizunaWire

/// The first line of a recording: what wrote it and under which policy.
public struct RecordingHeader: Sendable, Hashable {
    /// The recording format version this build reads and writes.
    public static let currentVersion = 1

    /// The format version.
    public var version: Int
    /// The protocol recorded, "kizunasync".
    public var protocolName: String
    /// The tool that wrote it, e.g. "accord 0.1.0".
    public var tool: String
    /// When recording started (RFC 3339).
    public var startedAt: String
    /// The upstream host.
    public var upstream: String
    /// The redaction policy applied, verbatim.
    public var redaction: JSONValue

    /// Makes a header.
    /// - Parameters:
    ///   - protocolName: the protocol.
    ///   - tool: the writing tool.
    ///   - startedAt: the start time.
    ///   - upstream: the upstream host.
    ///   - redaction: the redaction policy.
    public init(protocolName: String = "kizunasync", tool: String, startedAt: String, upstream: String, redaction: JSONValue) {
        self.version = Self.currentVersion
        self.protocolName = protocolName
        self.tool = tool
        self.startedAt = startedAt
        self.upstream = upstream
        self.redaction = redaction
    }

    /// Reads a header line.
    /// - Parameter json: the parsed line.
    /// - Throws: `WireError` with the pointer of the offending value.
    public init(json: JSONValue) throws(WireError) {
        var reader = try ObjectReader(json, at: .root, malformed: .json)
        version = try reader.integer("accord_recording")
        if version != Self.currentVersion {
            throw WireError(.json, at: JSONPointer(tokens: ["accord_recording"]), "recording format \(version) is not supported (this build reads \(Self.currentVersion))")
        }
        protocolName = try reader.string("protocol")
        tool = try reader.string("tool")
        startedAt = try reader.string("started_at")
        upstream = try reader.string("upstream")
        redaction = try reader.required("redaction")
        try reader.finish()
    }

    /// The header line's JSON.
    public var json: JSONValue {
        [
            "accord_recording": .number(JSONNumber(version)), "protocol": .string(protocolName), "redaction": redaction,
            "started_at": .string(startedAt), "tool": .string(tool), "upstream": .string(upstream),
        ]
    }
}

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
    /// "pull", "push", or "http" for other paths.
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
    /// The response body as JSON (null when empty or not JSON).
    public var response: JSONValue
    /// The line the exchange sits on, set when read.
    public var line: Int

    /// Makes an exchange.
    /// - Parameters:
    ///   - number: the exchange number.
    ///   - rpc: "pull", "push" or "http".
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
        self.method = "POST"
        self.path = rpc == "http" ? "/" : "/rest/v1/rpc/\(rpc)"
        self.status = status
        self.requestHeaders = JSONObject()
        self.responseHeaders = JSONObject()
        self.request = request
        self.response = response
        self.line = 0
    }
}
