import Corpus
import Foundation
import Testing

@testable import ReferenceClient

@Suite("SyncEngine durability: rows, outbox, cursor, watermark and latches survive a reopen")
struct DurabilityTests {
    @Test("a reopened store keeps its cursor, watermark, outbox, rows and staging; checkpoint only seeds a new store")
    func reopen() async throws {
        let path = Client.temporaryPath()
        do {
            let rig = try Rig.make(path: path, checkpoint: "4")
            #expect(await rig.store.cursor == "4")
            await rig.remote.enqueue(json: Wire.page(cursor: "5", rows: [(1, Wire.row(1, title: "pulled"), 5)]))
            _ = try await rig.engine.pull()
            try await rig.engine.write(Client.insert(1, row: 2, title: "pushed"))
            await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
            _ = try await rig.engine.pushOnce()
            try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "pending"]), atomicGroup: "g")
            await rig.remote.enqueue(json: Wire.page(cursor: "5:6", hasMore: true, rows: [(3, Wire.row(3, title: "staged"), 6)]))
            _ = try await rig.engine.pull(maxPages: 1)
            await rig.store.close()
        }
        let again = try Rig.make(path: path, checkpoint: "9")
        #expect(await again.store.cursor == "5")
        #expect(await again.store.lastMutationID == Client.mutationID(1))
        #expect(try await again.store.outbox().map(\.atomicGroup) == ["g"])
        #expect(try await again.todo(1)?["title"] == "pending")
        #expect(try await again.store.base(table: "todos", pk: Client.rowKey(1))?["title"] == "pulled")
        #expect(try await again.todo(2)?["title"] == "pushed")
        #expect(try await again.todo(3) == nil)
        #expect(await again.store.events.isEmpty)
        await again.remote.enqueue(json: Wire.page(cursor: "7"))
        _ = try await again.engine.pull()
        #expect(await again.sent().first?["cursor"] == "5:6")
        #expect(try await again.todo(3)?["title"] == "staged")
    }

    @Test("the soft-block latch and a pending rehydration survive a reopen; the latch raises no second event")
    func latches() async throws {
        let latched = Client.temporaryPath()
        do {
            let rig = try Rig.make(path: latched)
            await rig.remote.enqueue(json: Wire.page(cursor: "0", signal: "RESET_REQUIRED"))
            _ = try await rig.engine.pull()
            await rig.store.close()
        }
        let blocked = try Rig.make(path: latched)
        #expect(try await blocked.engine.pull().outcome == .blocked)
        #expect(await blocked.remote.requests.isEmpty)
        #expect(await blocked.store.events.isEmpty)

        let expired = Client.temporaryPath()
        do {
            let rig = try Rig.make(path: expired, checkpoint: "3")
            await rig.remote.enqueue(json: Wire.page(cursor: "3", signal: "CHECKPOINT_EXPIRED"))
            _ = try await rig.engine.pull()
            await rig.store.close()
        }
        let rehydrating = try Rig.make(path: expired)
        await rehydrating.remote.enqueue(json: Wire.page(cursor: "4"))
        _ = try await rehydrating.engine.pull()
        #expect(await rehydrating.sent().first?["cursor"] == "0")
        #expect(await rehydrating.store.cursor == "4")
    }

    @Test("a failure at the closing pull's seam commits neither the cursor nor the rows")
    func closingSeam() async throws {
        let rig = try Rig.make()
        await rig.store.setFailureInjection(true)
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "a"), 1)]))
        #expect(await failure { _ = try await rig.engine.pull() } == "STORE")
        #expect(await rig.store.cursor == "0")
        #expect(try await rig.todo(1) == nil)
    }
}
