import Corpus
import Foundation
import JSON
import Testing

@testable import ReferenceClient

@Suite("SyncEngine.pull: staging, commits, rebase and signals")
struct PullTests {
    @Test("a pull names every table's bucket, the cursor and the limit")
    func requestShape() async throws {
        let rig = try Rig.make(pullLimit: 2, checkpoint: "4")
        await rig.remote.enqueue(json: Wire.page(cursor: "4"))
        let result = try await rig.engine.pull()
        #expect(result.outcome == .closed && result.pages == 1 && result.cursor == "4")
        let body = try #require(await rig.sent().first)
        #expect(body["cursor"] == "4")
        #expect(body["limit"] == 2)
        #expect(body["client_id"] == .string(Rig.client))
        let tables = body["buckets"]?.arrayValue?.compactMap { $0["table"]?.stringValue }
        #expect(Set(tables ?? []) == ["todos", "notes"])
        #expect(body["buckets"]?.arrayValue?.first?["params"]?["owner_id"] == .string(Rig.user))
    }

    @Test("has_more:true pages stay invisible until the closing page commits them (pull/002)")
    func stagingInvisible() async throws {
        let rig = try Rig.make(pullLimit: 2)
        await rig.remote.enqueue(
            json: Wire.page(cursor: "0:2", hasMore: true, rows: [(1, Wire.row(1, title: "one"), 1), (2, Wire.row(2, title: "two"), 2)]))
        let staged = try await rig.engine.pull(maxPages: 1)
        #expect(staged.outcome == .staged && staged.cursor == "0")
        #expect(try await rig.todo(1) == nil)
        #expect(await rig.store.cursor == "0")
        #expect(try await rig.store.stagedCount() == 2)
        await rig.remote.enqueue(json: Wire.page(cursor: "3", rows: [(3, Wire.row(3, title: "three"), 3)]))
        let closed = try await rig.engine.pull()
        #expect(closed.outcome == .closed && closed.cursor == "3")
        #expect(await rig.sent().last?["cursor"] == "0:2")
        for n in 1...3 { #expect(try await rig.todo(n) != nil) }
        #expect(try await rig.store.stagedCount() == 0)
    }

    @Test("a failed continuation drops the staging; the next pull restarts from the committed cursor (fencing/001)")
    func failureDropsStaging() async throws {
        let rig = try Rig.make(checkpoint: "4")
        await rig.remote.enqueue(json: Wire.page(cursor: "6~5", hasMore: true, rows: [(2, Wire.row(2, title: "t2"), 6)]))
        await rig.remote.enqueue(.failure("transport-error"))
        #expect(await failure { _ = try await rig.engine.pull() } == "REMOTE")
        #expect(await rig.store.cursor == "4")
        #expect(try await rig.store.stagedCount() == 0)
        #expect(try await rig.todo(2) == nil)
        await rig.remote.enqueue(json: Wire.page(cursor: "6", rows: [(1, Wire.row(1, title: "t1"), 5), (2, Wire.row(2, title: "t2"), 6)]))
        _ = try await rig.engine.pull()
        let cursors = await rig.sent().map { $0["cursor"]?.stringValue }
        #expect(cursors == ["4", "6~5", "4"])
        #expect(await rig.store.cursor == "6")
        #expect(try await rig.todo(1)?["title"] == "t1")
    }

    @Test("malformed pages and unknown signals fail with JSON and UNKNOWN_SIGNAL and commit nothing")
    func malformed() async throws {
        for (body, code) in [("{}", "JSON"), (Wire.page(cursor: "1", signal: "WAKE_UP"), "UNKNOWN_SIGNAL"), ("[", "JSON")] {
            let rig = try Rig.make()
            await rig.remote.enqueue(json: Wire.page(cursor: "0:1", hasMore: true, rows: [(1, Wire.row(1, title: "a"), 1)]))
            await rig.remote.enqueue(json: body)
            #expect(await failure { _ = try await rig.engine.pull() } == code)
            #expect(await rig.store.cursor == "0")
            #expect(try await rig.store.stagedCount() == 0)
            #expect(try await rig.todo(1) == nil)
        }
    }

    @Test("a pulled tombstone with a pending update does not resurrect the row (rebase/003)")
    func tombstoneNoResurrection() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "shared then deleted"), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(12, "update", pk: Client.rowKey(1), columns: ["title": "pending while deleted"]))
        await rig.remote.enqueue(json: Wire.page(cursor: "2", tombstones: [(1, 2)]))
        _ = try await rig.engine.pull()
        #expect(try await rig.todo(1) == nil)
        #expect(await rig.store.outboxDepth == 1)
        await rig.remote.enqueue(json: Wire.verdicts(Wire.rejected(12, "DELETE_WINS", row: nil)))
        _ = try await rig.engine.pushOnce()
        #expect(try await rig.todo(1) == nil)
        #expect(await rig.store.outboxDepth == 0)
    }

    @Test("a pending increment is replayed over a pulled row (rebase)")
    func rebaseIncrement() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "start", extra: ["likes": 5]), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(1, "update", pk: Client.rowKey(1), transforms: ["likes": ["op": "increment", "by": 1]]))
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "mine"]))
        #expect(try await rig.todo(1)?["likes"] == 6)
        await rig.remote.enqueue(
            json: Wire.page(cursor: "2", rows: [(1, Wire.row(1, title: "theirs", extra: ["done": true, "likes": 10]), 2)]))
        _ = try await rig.engine.pull()
        #expect(try await rig.todo(1) == Wire.row(1, title: "mine", extra: ["done": true, "likes": 11]))
        #expect(try await rig.store.base(table: "todos", pk: Client.rowKey(1))?["likes"] == 10)
    }

    @Test("RESET_REQUIRED latches the soft block: event once, later push and pull blocked without a request")
    func resetRequired() async throws {
        let rig = try Rig.make()
        try await rig.engine.write(Client.insert(1, row: 1))
        await rig.remote.enqueue(json: Wire.signal("RESET_REQUIRED"))
        let pushed = try await rig.engine.pushOnce()
        #expect(pushed.outcome == .sent && pushed.signal == .resetRequired)
        #expect(await rig.store.outboxDepth == 1)
        #expect(await rig.store.softBlocked)
        #expect(try await rig.engine.pushOnce().outcome == .blocked)
        let pulled = try await rig.engine.pull()
        #expect(pulled.outcome == .blocked && pulled.pages == 0 && pulled.cursor == "0")
        #expect(await rig.remote.requests.count == 1)
        #expect(await rig.store.events.filter { $0.code == "RESET_REQUIRED" }.count == 1)

        let puller = try Rig.make()
        await puller.remote.enqueue(json: Wire.page(cursor: "0", signal: "RESET_REQUIRED"))
        let signalled = try await puller.engine.pull()
        #expect(signalled.outcome == .signal && signalled.signal == .resetRequired && signalled.cursor == "0")
        #expect(try await puller.engine.pull().outcome == .blocked)
        #expect(await puller.store.events.filter { $0.code == "RESET_REQUIRED" }.count == 1)
    }

    @Test("CHECKPOINT_EXPIRED rehydrates from 0, drops undelivered rows and replays the outbox (lifecycle/001)")
    func checkpointExpired() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(
            json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "gone"), 1), (2, Wire.row(2, title: "kept"), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(3, "update", pk: Client.rowKey(2), columns: ["done": true]))
        await rig.remote.enqueue(json: Wire.page(cursor: "1", signal: "CHECKPOINT_EXPIRED"))
        let expired = try await rig.engine.pull()
        #expect(expired.outcome == .signal && expired.signal == .checkpointExpired && expired.cursor == "1")
        #expect(await rig.store.events.contains { $0.code == "CHECKPOINT_EXPIRED" })
        await rig.remote.enqueue(json: Wire.page(cursor: "3", rows: [(2, Wire.row(2, title: "kept, newer"), 3)]))
        _ = try await rig.engine.pull()
        #expect(await rig.sent().last?["cursor"] == "0")
        #expect(try await rig.todo(1) == nil)
        #expect(try await rig.todo(2) == Wire.row(2, title: "kept, newer", extra: ["done": true]))
        #expect(await rig.store.cursor == "3")
        #expect(await rig.store.rehydrating == false)
    }

    @Test("conflicts on a closing page raise COLUMN_OVERWRITTEN (conflict/004)")
    func conflicts() async throws {
        let rig = try Rig.make()
        let conflict: JSONValue = [
            "column_name": "title", "conflict_mode": "arrival", "loser_value": "device-b title", "pk": .string(Client.rowKey(1)),
            "table": "todos", "winner_mutation_id": .string(Client.mutationID(13)), "winner_seq": "3",
        ]
        await rig.remote.enqueue(json: Wire.page(cursor: "3", rows: [(1, Wire.row(1, title: "device-a title"), 3)], conflicts: [conflict]))
        _ = try await rig.engine.pull()
        let events = await rig.store.events.filter { $0.code == "COLUMN_OVERWRITTEN" }
        #expect(events.count == 1)
        #expect(events.first?.data?["column_name"] == "title")
    }
}
