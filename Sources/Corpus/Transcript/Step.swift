/// One transcript step with its dense, one-based number.
public struct Step: Sendable, Hashable {
    /// The step number `n`.
    public var n: Int
    /// What the step does.
    public var action: StepAction

    /// A short label such as "push", "pull", "server", "local", "fault", "assert".
    public var label: String {
        switch action {
        case .rpc(let rpc): rpc.rpc.rawValue
        case .server, .reap: "server"
        case .local: "local"
        case .fault(let fault): "fault \(fault.fault.rawValue)"
        case .assert: "assert"
        }
    }
}

/// The step kinds of the transcript grammar.
public enum StepAction: Sendable, Hashable {
    /// A pull or push with its golden request and response.
    case rpc(RPCExchange)
    /// Another actor's upsert or delete on the server.
    case server(ServerChange)
    /// The tombstone reaper runs.
    case reap
    /// A client-local write (and its outbox entry).
    case local(LocalWrite)
    /// A transport fault.
    case fault(TransportFault)
    /// Client-state checks.
    case assert([Check])
}
