import JSON

/// A transport fault the harness injects.
public struct TransportFault: Sendable, Hashable {
    /// The two fault kinds.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The server applied the request; the answer was lost.
        case dropAck = "drop-ack"
        /// The request never reached the server.
        case transportError = "transport-error"
    }
    /// The fault.
    public var fault: Kind
    /// The RPC it hits.
    public var target: RPCKind
    /// The request the client sent (required for drop-ack).
    public var request: JSONValue?
}
