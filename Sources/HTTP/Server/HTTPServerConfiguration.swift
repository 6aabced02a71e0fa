/// What a request handler is: an async function from request to response.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// What a streaming request handler is: called on the connection's own thread (it may block),
/// it answers through the writer it is given; a head never sent becomes a 500.
public typealias HTTPStreamingHandler = @Sendable (HTTPRequest, HTTPResponseStream) -> Void

/// How an `HTTPServer` listens and what it tolerates.
public struct HTTPServerConfiguration: Sendable {
    /// The numeric address to bind; 127.0.0.1 unless the caller names another one.
    public var host: String
    /// The port; 0 picks an ephemeral one (read it from `HTTPServer.endpoint`).
    public var port: UInt16
    /// The parser's limits.
    public var limits: HTTPLimits
    /// How long a request may take to arrive, from its first byte to its last (then 408).
    public var readTimeout: Duration
    /// How long a kept-alive connection may sit idle between requests (then it is closed).
    public var idleTimeout: Duration
    /// How long one send may block on a peer that does not read.
    public var writeTimeout: Duration
    /// The most connections served at once; more are answered 503 and closed.
    public var maxConnections: Int
    /// How long `stop()` lets requests in progress finish before cutting connections.
    public var gracePeriod: Duration
    /// The response to a refused request (parse errors, limits, timeouts).
    public var errorResponse: @Sendable (HTTPError) -> HTTPResponse

    /// Makes a configuration.
    /// - Parameters:
    ///   - host: the numeric address to bind (IPv4 or IPv6, or "localhost").
    ///   - port: the port, 0 for an ephemeral one.
    ///   - limits: the parser's limits.
    ///   - readTimeout: the time a request may take to arrive.
    ///   - idleTimeout: the idle time allowed between requests.
    ///   - writeTimeout: the time one send may block.
    ///   - maxConnections: the connection cap.
    ///   - gracePeriod: the drain time of `stop()`.
    ///   - errorResponse: the response to a refused request.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(), readTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60), writeTimeout: Duration = .seconds(10), maxConnections: Int = 64,
        gracePeriod: Duration = .seconds(2), errorResponse: @escaping @Sendable (HTTPError) -> HTTPResponse = HTTPResponse.plain
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.readTimeout = readTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.maxConnections = maxConnections
        self.gracePeriod = gracePeriod
        self.errorResponse = errorResponse
    }
}
