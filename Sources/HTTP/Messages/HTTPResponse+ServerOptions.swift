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
