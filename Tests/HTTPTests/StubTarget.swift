import Corpus
import JSON
import KizunaWire
import ServerContract

/// A `KizunaSync.ServerTarget` that records every call and answers with canned replies.
actor StubTarget: KizunaSync.ServerTarget {
    enum Call: Sendable, Hashable {
        case seed(Seed)
        case step(Int)
        case apply(FixtureChange, String?)
        case commit(String)
        case pull(JSONValue, Identity)
        case push(JSONValue, Identity)
    }

    private(set) var calls: [Call] = []
    private let failure: TargetError?

    init(failure: TargetError? = nil) { self.failure = failure }

    func capabilities() async throws(TargetError) -> TargetCapabilities {
        if let failure { throw failure }
        return .reference
    }

    func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        calls.append(.seed(seed))
        if let failure { throw failure }
        return .asSeeded(seed)
    }

    func setStep(_ step: Int) async throws(TargetError) {
        calls.append(.step(step))
        if let failure { throw failure }
    }

    func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        calls.append(.apply(change, transaction))
        if let failure { throw failure }
    }

    func commit(transaction: String) async throws(TargetError) {
        calls.append(.commit(transaction))
        if let failure { throw failure }
    }

    func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        calls.append(.pull(body, identity))
        if let failure { throw failure }
        return RPCReply(
            status: 200, body: ["cursor": "0", "has_more": false, "rows": [], "tombstones": [], "signal": nil, "echo": body])
    }

    func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        calls.append(.push(body, identity))
        if let failure { throw failure }
        if body["schema_version"] == .number(JSONNumber(0)) {
            return RPCReply.error(status: 400, code: "22023", message: "schema_version below 1")
        }
        return RPCReply(status: 200, body: ["verdicts": []])
    }
}
