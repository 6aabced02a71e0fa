import KizunaWire

/// One transcript step with its dense, one-based number.
public struct Step: Sendable, Hashable {
    /// The step number `n`.
    public var n: Int
    /// What the step does.
    public var action: StepAction

    /// Makes a step.
    /// - Parameters:
    ///   - n: the number.
    ///   - action: what it does.
    public init(n: Int, action: StepAction) {
        self.n = n
        self.action = action
    }

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

/// Another actor's change on the server.
public struct ServerChange: Sendable, Hashable {
    /// The acting client or user.
    public var actor: String
    /// "upsert" or "delete".
    public var op: String
    /// The table.
    public var table: String
    /// The row key.
    public var pk: String
    /// Columns written by an upsert.
    public var columns: JSONObject?
    /// The origin clock, for hlc-mode tables.
    public var hlc: String?
}

/// A client-local write.
public struct LocalWrite: Sendable, Hashable {
    /// The mutation id the write enqueues.
    public var mutationID: String
    /// The operation.
    public var op: MutationOp
    /// The table.
    public var table: String
    /// The row key.
    public var pk: String
    /// The masked columns.
    public var columns: JSONObject
    /// Expected values.
    public var precondition: JSONObject?
    /// Field transforms by column.
    public var transforms: [(column: String, transform: Transform)]
    /// The engine error code the client must refuse the write with.
    public var expectError: String?

    /// Compares the wire forms.
    public static func == (lhs: LocalWrite, rhs: LocalWrite) -> Bool {
        lhs.mutationID == rhs.mutationID && lhs.op == rhs.op && lhs.table == rhs.table && lhs.pk == rhs.pk
            && lhs.columns == rhs.columns && lhs.precondition == rhs.precondition && lhs.expectError == rhs.expectError
            && lhs.transforms.map(\.column) == rhs.transforms.map(\.column)
            && lhs.transforms.map(\.transform) == rhs.transforms.map(\.transform)
    }

    /// Hashes the identifying fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mutationID)
        hasher.combine(columns)
    }
}

/// A transport fault the harness injects.
public struct TransportFault: Sendable, Hashable {
    /// The two fault kinds.
    public enum Kind: String, Sendable, Hashable {
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

/// A client-state check (assert steps and postconditions).
public enum Check: Sendable, Hashable {
    /// The locally readable row; nil means absent.
    case localRow(table: String, pk: String, row: JSONObject?)
    /// The durably persisted cursor token.
    case cursor(String)
    /// The number of pending outbox entries.
    case outboxDepth(Int)
    /// An engine event was raised.
    case event(String)
    /// No fractured mid-hydration state was ever observable.
    case noIntermediateCommit

    /// The closed set of events a transcript may assert.
    public static let events: Set<String> = [
        "MUTATION_REJECTED", "CHECKPOINT_EXPIRED", "RESET_REQUIRED", "DEAD_LETTER", "QUEUE_DEPTH", "BATCH_ABORTED",
        "COLUMN_OVERWRITTEN",
    ]

    /// A short description, e.g. "cursor = 4".
    public var summary: String {
        switch self {
        case .localRow(let table, let pk, let row): "local-row \(table)/\(pk) \(row == nil ? "absent" : "present")"
        case .cursor(let value): "cursor = \(value)"
        case .outboxDepth(let depth): "outbox-depth = \(depth)"
        case .event(let event): "event \(event)"
        case .noIntermediateCommit: "no-intermediate-commit"
        }
    }
}
