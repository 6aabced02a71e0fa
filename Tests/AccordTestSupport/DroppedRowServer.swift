import KizunaWire
import ServerContract

/// A server under test wrapped so that one pull answer loses a row: the `nth` pull answer that
/// carries rows (from 1) is sent without its first row, everything else is forwarded unchanged.
/// The bug of a server whose page query drops a row at a boundary: a replay must fail at that
/// exchange, not later.
public actor DroppedRowServer: ServerTarget {
    private let inner: any ServerTarget
    private let nth: Int
    private var withRows = 0

    /// Wraps a server.
    /// - Parameters:
    ///   - inner: the server.
    ///   - nth: which pull answer with rows loses its first row.
    public init(_ inner: any ServerTarget, nth: Int) {
        self.inner = inner
        self.nth = nth
    }

    /// Forwards.
    public func capabilities() async throws(TargetError) -> TargetCapabilities { try await inner.capabilities() }

    /// Forwards.
    public func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt { try await inner.seed(seed) }

    /// Forwards.
    public func setStep(_ step: Int) async throws(TargetError) { try await inner.setStep(step) }

    /// Forwards.
    public func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        try await inner.apply(change, heldIn: transaction)
    }

    /// Forwards.
    public func commit(transaction: String) async throws(TargetError) { try await inner.commit(transaction: transaction) }

    /// Pulls, and drops the first row of the `nth` answer that has rows.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.pull(body, as: identity)
        if let rows = reply.body["rows"]?.arrayValue, !rows.isEmpty {
            withRows += 1
            if withRows == nth {
                reply.body = reply.body.replacing(at: JSONPointer(tokens: ["rows"]), with: .array(Array(rows.dropFirst())))
            }
        }
        return reply
    }

    /// Forwards.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        try await inner.push(body, as: identity)
    }
}
