import KizunaWire

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

    /// Makes an exchange.
    /// - Parameters:
    ///   - rpc: which RPC.
    ///   - request: the request body.
    ///   - response: the response body.
    public init(rpc: RPCKind, request: JSONValue, response: JSONValue) {
        self.rpc = rpc
        self.request = request
        self.response = response
    }
}
