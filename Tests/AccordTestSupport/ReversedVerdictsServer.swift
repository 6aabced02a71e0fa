import Corpus
import JSON
import KizunaWire
import ServerContract

/// A server under test wrapped so that a push answer lists its verdicts in reverse order: the
/// bug a server has when it collects verdicts in a stack. Every verdict is right, but the answer
/// breaks I-5 (one verdict per mutation, in request order) and diverges from the golden answer at
/// `/verdicts/0/mutation_id`, so a report must name I-5, not the divergence. Everything else is
/// forwarded unchanged.
public actor ReversedVerdictsServer: WrappingTarget {
    /// The wrapped server.
    public nonisolated let inner: any KizunaSync.ServerTarget

    /// Wraps a server.
    /// - Parameter inner: the server.
    public init(_ inner: any KizunaSync.ServerTarget) {
        self.inner = inner
    }

    /// Pushes, then reverses the answer's verdicts.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.push(body, as: identity)
        if let verdicts = reply.body["verdicts"]?.arrayValue, verdicts.count > 1 {
            reply.body = reply.body.replacing(at: JSONPointer(tokens: ["verdicts"]), with: .array(Array(verdicts.reversed())))
        }
        return reply
    }
}
