import JSON

/// KizunaSync's wire surface as PostgREST serves it: the RPC routes, the request headers and
/// the schema profile. Every side of Accord that speaks or reads this surface (the reference
/// server's router, the client lane's mock, the HTTP target, the recorder, HAR import and the
/// recording's own paths) recognises and builds routes here, so there is one reading of them.
/// Error bodies are in `PostgRESTSurface+Errors.swift`, JWT claims in `+Claims.swift`.
public enum PostgRESTSurface {
    /// The path every RPC is posted under: `/rest/v1/rpc/`.
    public static let rpcPrefix = "/rest/v1/rpc/"

    /// KizunaSync's RPC names, in the order the protocol lists them.
    public static let rpcNames = ["pull", "push"]

    /// The schema KizunaSync's functions live in, named by `Content-Profile`.
    public static let profile = "kizunasync"

    /// The header names the surface reads and writes, as PostgREST and supabase-js spell them
    /// (HTTP header names compare case-insensitively).
    public enum Header {
        /// `Authorization: Bearer <jwt>`.
        public static let authorization = "Authorization"
        /// The project's API key.
        public static let apikey = "apikey"
        /// The request body's media type.
        public static let contentType = "Content-Type"
        /// The media types the client takes.
        public static let accept = "Accept"
        /// The schema of the function called.
        public static let contentProfile = "Content-Profile"
    }

    /// The path of an RPC.
    /// - Parameter rpc: its name, e.g. "pull".
    /// - Returns: `/rest/v1/rpc/<rpc>`.
    public static func rpcPath(_ rpc: String) -> String { rpcPrefix + rpc }

    /// The RPC a request path names on the surface: exactly `/rest/v1/rpc/pull` or `…/push`.
    /// - Parameter path: the request path, without its query.
    /// - Returns: "pull" or "push", or nil for any other path.
    public static func rpc(atPath path: some StringProtocol) -> String? {
        guard path.hasPrefix(rpcPrefix) else { return nil }
        let name = path.dropFirst(rpcPrefix.count)
        return rpcNames.first { $0 == name }
    }

    /// The RPC a captured URL path names, as traffic saved elsewhere (a HAR file) shows it: the
    /// path may sit under a gateway's mount point and carry a query, so it is recognised by its
    /// last two segments (`…/rpc/pull`, `…/rpc/push`).
    /// - Parameter path: the path, with or without a query.
    /// - Returns: "pull" or "push", or nil.
    public static func rpc(inCapturedPath path: some StringProtocol) -> String? {
        let bare = path.prefix { $0 != "?" }
        return rpcNames.first { bare.hasSuffix("/rpc/" + $0) }
    }
}

extension PostgRESTSurface {
    /// PostgREST's error object `{code, details, hint, message}`, as every PostgREST-shaped error
    /// Accord answers or relays carries it (the router's refusals, SQL errors, the mock's and the
    /// proxy's own failures).
    /// - Parameters:
    ///   - code: the SQLSTATE, PostgREST (`PGRST…`) or Accord code.
    ///   - message: the message.
    ///   - details: the details, or nil (JSON null).
    ///   - hint: the hint, or nil (JSON null).
    /// - Returns: the object.
    public static func errorBody(code: String, message: String, details: String? = nil, hint: String? = nil) -> JSONValue {
        [
            "code": .string(code), "details": details.map { .string($0) } ?? .null, "hint": hint.map { .string($0) } ?? .null,
            "message": .string(message),
        ]
    }
}
