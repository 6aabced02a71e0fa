import Corpus
import Foundation
import Testing

@testable import ReferenceClient

@Suite("Seeded faults: each switch breaks the rule it is named after")
struct FaultTests {
    @Test("every fault has a kebab-case name and none is on by default")
    func names() async throws {
        #expect(ClientFault.allCases.count == 11)
        #expect(ClientFault(rawValue: "push-after-reset") == .pushAfterReset)
        #expect(try Rig.make().engine.faults.isEmpty)
    }

    @Test("push-after-reset keeps sending RPCs while the soft block is latched")
    func pushAfterReset() async throws {
        let rig = try Rig.make(faults: [.pushAfterReset])
        try await rig.engine.write(Client.insert(1, row: 1))
        await rig.remote.enqueue(json: Wire.signal("RESET_REQUIRED"))
        await rig.remote.enqueue(json: Wire.signal("RESET_REQUIRED"))
        await rig.remote.enqueue(json: Wire.page(cursor: "0", signal: "RESET_REQUIRED"))
        _ = try await rig.engine.pushOnce()
        #expect(await rig.store.softBlocked)
        #expect(try await rig.engine.pushOnce().outcome == .sent)
        #expect(try await rig.engine.pull().outcome == .signal)
        #expect(await rig.remote.requests.count == 3)
    }

    @Test("split-atomic-run sends only the first member of an atomic run")
    func splitAtomicRun() async throws {
        let rig = try Rig.make(faults: [.splitAtomicRun])
        for n in 1...3 { try await rig.engine.write(Client.insert(n, row: n), atomicGroup: "g") }
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        #expect(try await rig.engine.pushOnce().mutations == 1)
        #expect(await rig.store.outboxDepth == 2)
    }

    @Test("new-id-on-resend gives the head entry a fresh mutation id after a REMOTE failure")
    func newIDOnResend() async throws {
        let rig = try Rig.make(faults: [.newIDOnResend])
        try await rig.engine.write(Client.insert(1, row: 1))
        await rig.remote.enqueue(.failure("drop-ack"))
        await rig.remote.enqueue(.failure("drop-ack"))
        _ = await failure { _ = try await rig.engine.pushOnce() }
        _ = await failure { _ = try await rig.engine.pushOnce() }
        let bodies = await rig.remote.sentBodies()
        #expect(bodies[0] != bodies[1])
        #expect(bodies[0].contains(Client.mutationID(1)) && !bodies[1].contains(Client.mutationID(1)))
        let fresh = try await rig.store.outbox().first?.mutation.mutationID
        #expect(fresh != nil && fresh != Client.mutationID(1))
        // The push in flight was rebuilt around the renumbered head: the next resend carries that fresh id.
        await rig.remote.enqueue(.failure("drop-ack"))
        _ = await failure { _ = try await rig.engine.pushOnce() }
        #expect(await rig.remote.sentBodies()[2].contains(fresh ?? "none"))
    }

    @Test("commit-staged-page makes a has_more:true page and its cursor visible at once")
    func commitStagedPage() async throws {
        let rig = try Rig.make(faults: [.commitStagedPage])
        await rig.remote.enqueue(json: Wire.page(cursor: "0:1", hasMore: true, rows: [(1, Wire.row(1, title: "early"), 1)]))
        let result = try await rig.engine.pull(maxPages: 1)
        #expect(result.cursor == "0:1")
        #expect(try await rig.todo(1)?["title"] == "early")
    }

    @Test("skip-bijection-check applies what it can of verdicts that do not match the mutations")
    func skipBijectionCheck() async throws {
        let rig = try Rig.make(faults: [.skipBijectionCheck])
        try await rig.engine.write(Client.insert(1, row: 1))
        try await rig.engine.write(Client.insert(2, row: 2))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(2)))
        #expect(try await rig.engine.pushOnce().outcome == .sent)
        #expect(try await rig.store.outbox().map(\.mutation.mutationID) == [Client.mutationID(1)])
        #expect(await rig.store.lastMutationID == Client.mutationID(2))
    }

    @Test("resurrect-under-tombstone makes a pending update visible over a pulled tombstone")
    func resurrectUnderTombstone() async throws {
        let rig = try Rig.make(faults: [.resurrectUnderTombstone])
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "doomed"), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "pending"]))
        await rig.remote.enqueue(json: Wire.page(cursor: "2", tombstones: [(1, 2)]))
        _ = try await rig.engine.pull()
        #expect(try await rig.todo(1)?["title"] == "pending")
    }

    @Test("two-transaction-write leaves the row without its outbox entry when the second transaction fails")
    func twoTransactionWrite() async throws {
        let rig = try Rig.make(faults: [.twoTransactionWrite])
        await rig.store.setFailureInjection(true)
        #expect(await failure { try await rig.engine.write(Client.insert(1, row: 1, title: "orphan")) } == "STORE")
        #expect(try await rig.todo(1)?["title"] == "orphan")
        #expect(try await rig.store.outbox().isEmpty)
    }

    @Test("cursor-before-data commits the cursor even when the rows of the closing pull fail")
    func cursorBeforeData() async throws {
        let rig = try Rig.make(faults: [.cursorBeforeData])
        await rig.store.setFailureInjection(true)
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "a"), 1)]))
        #expect(await failure { _ = try await rig.engine.pull() } == "STORE")
        #expect(await rig.store.cursor == "1")
        #expect(try await rig.todo(1) == nil)
    }
}
