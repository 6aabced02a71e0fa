/// The HTTP versions the server speaks.
public enum HTTPVersion: String, Sendable, Hashable {
    /// HTTP/1.0: one request per connection unless `Connection: keep-alive`.
    case http10 = "HTTP/1.0"
    /// HTTP/1.1: persistent connections unless `Connection: close`.
    case http11 = "HTTP/1.1"
}

/// A complete, parsed request: the request line, the header fields and the decoded body.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, case-sensitive as sent, e.g. "POST".
    public var method: String
    /// The request target as sent, e.g. "/rest/v1/rpc/pull?x=1".
    public var target: String
    /// The path part of the target, without the query.
    public var path: String
    /// The query after `?`, or nil when there is none.
    public var query: String?
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// The body with any chunked framing removed.
    public var body: [UInt8]
    /// The listening address the connection was accepted on.
    public var listener: HTTPEndpoint
    /// The peer's address.
    public var peer: HTTPEndpoint

    /// Makes a request; endpoints default to loopback for requests built in memory.
    /// - Parameters:
    ///   - method: the method.
    ///   - target: the request target.
    ///   - version: the version.
    ///   - headers: the header fields.
    ///   - body: the decoded body.
    ///   - listener: the listening address.
    ///   - peer: the peer's address.
    public init(
        method: String, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        listener: HTTPEndpoint = HTTPEndpoint(host: "127.0.0.1", port: 0), peer: HTTPEndpoint = HTTPEndpoint(host: "127.0.0.1", port: 0)
    ) {
        self.method = method
        self.target = target
        let (path, query) = Self.split(target)
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.listener = listener
        self.peer = peer
    }

    /// Whether the connection stays open after the response, from the version and `Connection`.
    public var keepAlive: Bool {
        let tokens = headers.tokens(for: "Connection")
        if tokens.contains("close") { return false }
        return version == .http11 || tokens.contains("keep-alive")
    }

    /// Splits a target into its path and query; an absolute-form target keeps only its path.
    static func split(_ target: String) -> (path: String, query: String?) {
        let bytes = target.utf8
        if bytes.first == UInt8(ascii: "/"), bytes.allSatisfy({ $0 < 0x80 }) {
            // Origin form in ASCII, as every target read off the wire is: a byte search gives
            // the same split as the search by characters below, without breaking graphemes.
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
            return (String(target[..<question]), String(target[bytes.index(after: question)...]))
        }
        var rest = Substring(target)
        for scheme in ["http://", "https://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return ("/", nil) }
            rest = rest[slash...]
            if rest.first == "?" { rest = "/" + rest }
        }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }
}
