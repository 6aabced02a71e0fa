/// A response to send: status, header fields and body. The server adds `Content-Length`,
/// `Date`, `Server` and `Connection` (`HTTPResponseHead` states the header policy).
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields besides the ones the server adds.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]
    /// Whether the server closes the connection without sending anything (a lost answer, for fault injection).
    public var dropsConnection = false

    /// Makes a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// No answer at all: the server reads the request, sends nothing and closes the connection.
    public static var drop: HTTPResponse {
        var response = HTTPResponse(status: 500)
        response.dropsConnection = true
        return response
    }

    /// A plain-text response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - text: the body text; a newline is appended.
    /// - Returns: the response.
    public static func text(status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((text + "\n").utf8))
    }

    /// The plain-text answer to a refused request.
    /// - Parameter error: the refusal.
    /// - Returns: the response with `error.status`.
    public static func plain(_ error: HTTPError) -> HTTPResponse { text(status: error.status, error.detail) }

    /// Whether the response asks to close the connection (`Connection: close`).
    public var closesConnection: Bool { headers.tokens(for: "Connection").contains("close") }

    /// The standard reason phrase of a status.
    /// - Returns: the phrase, or "Unknown".
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    /// The bytes on the wire for this response.
    /// - Parameters:
    ///   - version: the version of the request answered.
    ///   - keepAlive: whether the connection stays open.
    ///   - omitBody: true when answering HEAD (the length is kept, the body dropped).
    ///   - date: the `Date` header value.
    /// - Returns: the serialized head and body.
    public func serialized(version: HTTPVersion = .http11, keepAlive: Bool, omitBody: Bool = false, date: String) -> [UInt8] {
        let head = HTTPResponseHead(status: status, headers: headers)
        let framing = head.framing(contentLength: body.count, version: version, omitBody: false)
        var bytes = head.encoded(version: version, framing: framing, keepAlive: keepAlive, identity: .accord(date: date))
        if framing != .none && !omitBody { bytes += body }
        return bytes
    }
}

/// `OPTIONS *`: a question about the server as a whole rather than one of its resources
/// (RFC 9110 §9.3.7), answered by whoever holds the connection, never passed on.
extension HTTPRequest {
    /// Whether the request is `OPTIONS *` (the asterisk-form target, which the parser accepts
    /// with OPTIONS only).
    public var asksForServerOptions: Bool { method == "OPTIONS" && target == "*" }
}

extension HTTPResponse {
    /// The answer to `OPTIONS *`: 204 with `Allow` listing the methods the server takes.
    /// - Parameter methods: the methods, e.g. ["GET", "POST"].
    /// - Returns: the response.
    public static func serverOptions(allowing methods: [String]) -> HTTPResponse {
        HTTPResponse(status: 204, headers: ["Allow": methods.joined(separator: ", ")])
    }
}
