import Corpus
import JSON
import KizunaWire
import ServerContract

/// A server under test that wraps another to seed one bug, forwarding every operation it does not
/// change: conformers implement only the operation they break.
public protocol WrappingTarget: KizunaSync.ServerTarget {
    /// The wrapped server.
    var inner: any KizunaSync.ServerTarget { get }
}

extension WrappingTarget {
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

    /// Forwards.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        try await inner.pull(body, as: identity)
    }

    /// Forwards.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        try await inner.push(body, as: identity)
    }
}
