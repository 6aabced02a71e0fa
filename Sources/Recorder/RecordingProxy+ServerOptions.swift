import HTTP

extension RecordingProxy {
    /// The methods the proxy forwards, as `OPTIONS *` lists them: those of the PostgREST surface.
    /// (Any token method is forwarded; CONNECT has no origin-form target and is refused.)
    static let forwardedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// The proxy's own answer to a request it does not forward, or nil: `OPTIONS *` asks about
    /// the proxy itself, and as a URL on the upstream it would be a bad one (RFC 9110 §9.3.7).
    /// Such an answer is not an exchange with the upstream and is not recorded.
    /// - Parameter request: the client's request.
    /// - Returns: the answer, or nil to forward the request.
    static func localAnswer(to request: HTTPRequest) -> HTTPResponse? {
        request.asksForServerOptions ? .serverOptions(allowing: forwardedMethods) : nil
    }
}
