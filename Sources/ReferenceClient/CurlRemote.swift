import Transport

/// The libcurl remote: POSTs each RPC to `<base_url>/rest/v1/rpc/<name>` with the PostgREST headers.
public actor CurlRemote: ClientRemote {
    private let session: CurlSession
    private let baseURL: String
    private let headers: [(String, String)]
    private let timeout: Double

    /// Makes a remote for one server and identity.
    /// - Parameters:
    ///   - baseURL: the server base URL, e.g. `http://127.0.0.1:54321`.
    ///   - apikey: the `apikey` header.
    ///   - jwt: the bearer token.
    ///   - profile: the `Content-Profile` schema.
    ///   - timeout: seconds before a request is abandoned (at most 5).
    /// - Throws: `ClientError` with `CONFIG_INVALID` when libcurl cannot be set up.
    public init(baseURL: String, apikey: String, jwt: String, profile: String = "kizunasync", timeout: Double = 5) throws(ClientError) {
        do {
            session = try CurlSession()
        } catch {
            throw ClientError(.configInvalid, "the HTTP client did not start: \(error)")
        }
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.headers = [
            ("Authorization", "Bearer \(jwt)"), ("apikey", apikey), ("Content-Type", "application/json"),
            ("Accept", "application/json"), ("Content-Profile", profile),
        ]
        self.timeout = min(max(timeout, 0.1), 5)
    }

    /// POSTs one RPC body.
    /// - Returns: the status and body.
    /// - Throws: `TransportError` for a network failure or a timeout.
    public func send(_ rpc: ClientRPC, body: [UInt8]) async throws -> RemoteReply {
        let reply = try await session.send(
            "POST", "\(baseURL)/rest/v1/rpc/\(rpc.rawValue)", headers: headers, body: body, timeout: timeout)
        return RemoteReply(status: reply.status, body: reply.body)
    }
}
