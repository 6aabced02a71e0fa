import Corpus
import JSON
import KizunaWire
import ServerContract

/// A server under test wrapped so that it answers other seqs and cursors than it makes: with
/// `.offset(100)` a correct server that numbers differently (every check must still pass at tier
/// bound), with the other rules a server whose numbering breaks the golden-to-live bijection.
/// Requests are mapped back before they reach the wrapped server; its receipt is renumbered too.
public actor RenumberingServer: KizunaSync.ServerTarget {
    private let inner: any KizunaSync.ServerTarget
    private var map: SeqMap

    /// Wraps a server.
    /// - Parameters:
    ///   - inner: the server.
    ///   - rule: how its seqs are renumbered.
    public init(_ inner: any KizunaSync.ServerTarget, _ rule: Renumbering) {
        self.inner = inner
        self.map = SeqMap(rule)
    }

    /// The wrapped server's capabilities; a renumbering other than an offset leaves gaps, so it
    /// declares its numbering gapped (the bijection, not the density, is what it breaks).
    public func capabilities() async throws(TargetError) -> TargetCapabilities {
        var capabilities = try await inner.capabilities()
        if case .offset = map.rule {} else { capabilities.numbering = .gapped }
        return capabilities
    }

    /// Seeds the wrapped server and renumbers its receipt.
    public func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        let receipt = try await inner.seed(seed)
        func out(_ seq: SequenceNumber) -> SequenceNumber {
            guard let number = Int64(seq.text) else { return seq }
            return SequenceNumber(UInt64(map.out(number)))
        }
        let base = (Int64(receipt.base.text) ?? 0) + map.baseShift
        return SeedReceipt(base: SequenceNumber(UInt64(max(0, base))), history: receipt.history.map { $0.map(out) })
    }

    /// Forwards.
    public func setStep(_ step: Int) async throws(TargetError) { try await inner.setStep(step) }

    /// Forwards.
    public func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        try await inner.apply(change, heldIn: transaction)
    }

    /// Forwards.
    public func commit(transaction: String) async throws(TargetError) { try await inner.commit(transaction: transaction) }

    /// Pulls with the request mapped back and the answer renumbered.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.pull(map.rewrite(body, outward: false), as: identity)
        map.countPull()
        reply.body = map.rewrite(reply.body, outward: true)
        if let cursor = reply.body["cursor"]?.stringValue, reply.body["signal"]?.isNull != false {
            reply.body = reply.body.replacing(at: JSONPointer(tokens: ["cursor"]), with: .string(map.cursor(cursor)))
        }
        return reply
    }

    /// Pushes with the request mapped back and the answer renumbered.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.push(map.rewrite(body, outward: false), as: identity)
        reply.body = map.rewrite(reply.body, outward: true)
        return reply
    }
}
