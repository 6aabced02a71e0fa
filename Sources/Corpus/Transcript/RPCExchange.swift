import JSON

/// Which RPC.
public enum RPCKind: String, Sendable, Hashable, CaseIterable {
    /// `rpc/pull`.
    case pull
    /// `rpc/push`.
    case push
}

/// A golden request and response, kept as JSON so that a malformed payload is a finding for
/// the rules, not a load error.
public struct RPCExchange: Sendable, Hashable {
    /// Which RPC.
    public var rpc: RPCKind
    /// The request body.
    public var request: JSONValue
    /// The response body.
    public var response: JSONValue
    /// The HTTP status the golden response carries: 200 in upstream transcripts; Accord's own
    /// cases may pin an error reply (e.g. 400 with a PostgREST `22023` body) with `"status"`.
    public var status: Int
    /// Who makes the call when not the case's own user and client (Accord's own cases use this
    /// for a replay by another user); nil means `context.user_id` and `context.client_id`.
    public var caller: (user: String, client: String)?
    /// The engine error code a client must refuse the golden response with (Accord's own
    /// client-lane cases use this for responses that break the wire contract); nil for a
    /// response the client must accept.
    public var expectError: String?

    /// Makes an exchange.
    /// - Parameters:
    ///   - rpc: which RPC.
    ///   - request: the request body.
    ///   - response: the response body.
    ///   - status: the golden HTTP status.
    public init(rpc: RPCKind, request: JSONValue, response: JSONValue, status: Int = 200) {
        self.rpc = rpc
        self.request = request
        self.response = response
        self.status = status
        self.caller = nil
        self.expectError = nil
    }

    /// Compares every field.
    /// - Parameters:
    ///   - lhs: one exchange.
    ///   - rhs: another.
    /// - Returns: whether they are equal.
    public static func == (lhs: RPCExchange, rhs: RPCExchange) -> Bool {
        lhs.rpc == rhs.rpc && lhs.request == rhs.request && lhs.response == rhs.response && lhs.status == rhs.status
            && lhs.caller?.user == rhs.caller?.user && lhs.caller?.client == rhs.caller?.client
            && lhs.expectError == rhs.expectError
    }

    /// Hashes the bodies.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rpc)
        hasher.combine(request)
        hasher.combine(status)
    }

    /// True when the golden response is a protocol answer (2xx) rather than an error reply.
    public var isAnswer: Bool { (200..<300).contains(status) }
}

extension RPCExchange {
    /// Whether another client than the case's makes this exchange (a `caller` naming another
    /// user or client): a recorded session's other devices, or another user replaying an id.
    public func isAnotherClient(than context: CaseContext) -> Bool {
        guard let caller else { return false }
        return caller.client != context.clientID || caller.user != context.userID
    }
}
