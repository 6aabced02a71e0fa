import Corpus
import Foundation
import KizunaWire

/// The KizunaSync client engine: local writes, pushOnce with verdict handling, and staged pulls over one `ClientStore`.
public actor SyncEngine {
    /// The most ordinary entries one push carries.
    public static let maxBatch = 500

    /// The durable local store.
    public nonisolated let store: ClientStore
    /// The identities, tables and pull options.
    public nonisolated let configuration: ClientConfiguration
    /// The seeded faults switched on.
    public nonisolated let faults: Set<ClientFault>
    let remote: any ClientRemote

    /// Makes an engine over an open store.
    /// - Parameters:
    ///   - store: the open store.
    ///   - remote: the server.
    ///   - configuration: identities, tables and pull options.
    ///   - faults: the seeded faults to switch on (none by default).
    public init(store: ClientStore, remote: any ClientRemote, configuration: ClientConfiguration, faults: Set<ClientFault> = []) {
        self.store = store
        self.remote = remote
        self.configuration = configuration
        self.faults = faults
    }

    /// Opens (or creates) the store at `path` and makes an engine over it.
    /// - Parameters:
    ///   - path: the SQLite file, or nil for an in-memory store.
    ///   - remote: the server.
    ///   - configuration: identities, tables and pull options.
    ///   - faults: the seeded faults to switch on.
    ///   - clock: the wall clock for origin clocks.
    ///   - reached: called at each kill-matrix seam (`KillHook`) the engine reaches; nothing by default.
    /// - Returns: the engine.
    /// - Throws: `ClientError` with `STORE` when the store cannot be opened.
    public static func open(
        path: String?, remote: any ClientRemote, configuration: ClientConfiguration, faults: Set<ClientFault> = [],
        clock: @escaping @Sendable () -> Date = { Date() }, reached: @escaping @Sendable (KillHook) -> Void = { _ in }
    ) throws(ClientError) -> SyncEngine {
        let store = try ClientStore.open(
            path: path, tables: configuration.tables, schemaVersion: configuration.schemaVersion, checkpoint: configuration.checkpoint,
            clientID: configuration.clientID, userID: configuration.userID, faults: faults, clock: clock,
            reached: reached)
        return SyncEngine(store: store, remote: remote, configuration: configuration, faults: faults)
    }

    /// Applies a local write and queues its outbox entry in one transaction.
    /// - Parameters:
    ///   - write: the local write.
    ///   - atomicGroup: the atomic group label, or nil.
    /// - Returns: the outbox depth afterwards.
    /// - Throws: `ClientError` (`UNKNOWN_TABLE`, `SOFT_DELETE_VIOLATION`, `LOCAL_CONSTRAINT`, `STORE`).
    @discardableResult
    public func write(_ write: LocalWrite, atomicGroup: String? = nil) async throws(ClientError) -> Int {
        try await store.write(write, atomicGroup: atomicGroup)
    }

    /// Applies a local write given in the wire mutation shape and queues its outbox entry in one transaction.
    /// - Parameters:
    ///   - mutation: the write; its id is queued as given and its origin clock is the engine's own.
    ///   - atomicGroup: the atomic group label, or nil.
    /// - Returns: the outbox depth afterwards.
    /// - Throws: `ClientError` (`UNKNOWN_TABLE`, `SOFT_DELETE_VIOLATION`, `LOCAL_CONSTRAINT`, `STORE`).
    @discardableResult
    public func write(mutation: Mutation, atomicGroup: String? = nil) async throws(ClientError) -> Int {
        try await store.write(mutation, atomicGroup: atomicGroup)
    }

    /// Runs one pushOnce: sends the push in flight again byte for byte when an earlier attempt ended uncertain, else the
    /// head of the outbox (persisted as the push in flight before it is sent), and handles the answer. Only a definitive
    /// answer (verdicts, abort or signal handled, a permanent failure charged, a wire-contract violation) ends the push
    /// in flight; after `REMOTE` the next pushOnce resends the same bytes and watermark, also after a reopen.
    /// - Returns: what was sent and the answer's signal.
    /// - Throws: `ClientError` (`REMOTE`, `PERMANENT_TRANSPORT`, `STORE`) or the `WireError` of a response that breaks the
    ///   wire contract (never charged; nothing applied).
    public func pushOnce() async throws -> PushReport {
        if await store.softBlocked && !faults.contains(.pushAfterReset) { return PushReport(outcome: .blocked) }
        let push = try await store.nextPush(
            maxEntries: Self.maxBatch, schemaVersion: configuration.schemaVersion, clientID: configuration.clientID)
        guard let push else { return PushReport(outcome: .nothing) }
        let batch = push.batch
        let reply: RemoteReply
        do {
            reply = try await remote.send(.push, body: push.body)
        } catch {
            try await uncertain(push)
            throw ClientError(.remote, "push: \(error)")
        }
        guard (200..<300).contains(reply.status) else {
            let failure = PostgRESTFailure(reply)
            guard failure.isPermanent else {
                try await uncertain(push)
                throw ClientError(.remote, "push: \(failure)")
            }
            let atOnce = failure.code == "KZP02" && push.request.atomic
            let dead = try await store.charge(batch, code: failure.code ?? "", atOnce: atOnce)
            throw ClientError(.permanentTransport, "push: \(failure)\(dead ? "; dead-lettered" : "")")
        }
        let response: PushResponse
        do {
            response = try PushResponse(bytes: reply.body)
            if !faults.contains(.skipBijectionCheck) {
                try response.validate(answering: push.request)
            }
        } catch {
            try await store.abandonPush()
            throw error
        }
        if case .signal = response {} else { store.reached(.afterPushAnswered) }
        switch response {
        case .verdicts(let verdicts):
            try await store.applyVerdicts(verdicts, batch: batch)
            return PushReport(outcome: .sent, mutations: batch.count)
        case .aborted(let abort):
            do {
                try await store.applyAbort(abort, batch: batch)
            } catch let error as WireError {
                try await store.abandonPush()
                throw error
            }
            return PushReport(outcome: .sent, mutations: batch.count)
        case .signal(let type):
            if type == .resetRequired {
                try await store.latchReset(endingPush: true)
            } else {
                try await store.abandonPush()
            }
            return PushReport(outcome: .sent, mutations: batch.count, signal: type)
        }
    }

    /// After an uncertain outcome the push stays in flight for an identical resend; with `new-id-on-resend` the head
    /// entry gets a fresh mutation id instead and the push in flight is forgotten, so the resend differs.
    private func uncertain(_ push: InFlightPush) async throws {
        guard faults.contains(.newIDOnResend), let first = push.batch.first else { return }
        try await store.renumberHead(first)
    }
}
