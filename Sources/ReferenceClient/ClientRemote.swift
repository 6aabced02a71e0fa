/// The two RPCs a client sends.
public enum ClientRPC: String, Sendable, Hashable, CaseIterable {
    /// `POST <base_url>/rest/v1/rpc/pull`.
    case pull
    /// `POST <base_url>/rest/v1/rpc/push`.
    case push
}

/// An HTTP answer: the status and the body bytes.
public struct RemoteReply: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body bytes.
    public var body: [UInt8]

    /// Makes an answer.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// The server as the engine sees it: one POST per RPC, answered with a status and body, or failing in transport.
public protocol ClientRemote: Sendable {
    /// Sends one RPC body and waits for its answer.
    /// - Parameters:
    ///   - rpc: which RPC.
    ///   - body: the request body (compact canonical JSON).
    /// - Returns: the HTTP status and body.
    /// - Throws: any error for a transport failure (network fault, timeout, connection closed without an answer).
    func send(_ rpc: ClientRPC, body: [UInt8]) async throws -> RemoteReply
}
