import Corpus
import Foundation
import Testing

@testable import ReferenceClient

@Suite("SyncEngine.pushOnce: requests and verdict handling")
struct PushVerdictTests {
    @Test("an empty outbox sends nothing; a push carries the golden request shape")
    func requestShape() async throws {
        let rig = try Rig.make()
        let nothing = try await rig.engine.pushOnce()
        #expect(nothing.outcome == .nothing)
        #expect(await rig.remote.requests.isEmpty)
        try await rig.engine.write(Client.insert(1, row: 1, title: "first"))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        let sent = try await rig.engine.pushOnce()
        #expect(sent.outcome == .sent && sent.mutations == 1)
        let body = try #require(await rig.sent().first)
        #expect(body["batch"]?["atomic"] == false)
        #expect(body["client_id"] == .string(Rig.client))
        #expect(body["last_mutation_id"] == .null)
        #expect(body["schema_version"] == 1)
        #expect(body["batch"]?["mutations"]?.arrayValue?.first?["mutation_id"] == .string(Client.mutationID(1)))
        #expect(body["batch"]?["mutations"]?.arrayValue?.first?["hlc"] == nil)
    }

    @Test("applied without server_row installs the mutation's own effect and advances the watermark")
    func appliedWithoutServerRow() async throws {
        let rig = try Rig.make()
        try await rig.engine.write(Client.insert(1, row: 1, title: "mine"))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        _ = try await rig.engine.pushOnce()
        #expect(await rig.store.outboxDepth == 0)
        #expect(await rig.store.lastMutationID == Client.mutationID(1))
        #expect(try await rig.store.base(table: "todos", pk: Client.rowKey(1))?["title"] == "mine")
        #expect(try await rig.todo(1)?["title"] == "mine")
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "again"]))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(2)))
        _ = try await rig.engine.pushOnce()
        #expect(await rig.sent().last?["last_mutation_id"] == .string(Client.mutationID(1)))
    }

    @Test("applied with server_row installs the server's row (increment/004)")
    func appliedWithServerRow() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "start", extra: ["likes": 0]), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), transforms: ["likes": ["op": "increment", "by": 1]]))
        #expect(try await rig.todo(1)?["likes"] == 1)
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(2, row: Wire.row(1, title: "start", extra: ["likes": 2]))))
        _ = try await rig.engine.pushOnce()
        #expect(try await rig.todo(1)?["likes"] == 2)
        #expect(await rig.store.outboxDepth == 0)
    }

    @Test("rejected with server_row reverts the row, journals it and raises MUTATION_REJECTED (push/004)")
    func rejectedWithServerRow() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "unclaimed"), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(5, "update", pk: Client.rowKey(1), columns: ["title": "claimed by device-a"]))
        let server = Wire.row(1, title: "claimed by device-b")
        await rig.remote.enqueue(json: Wire.verdicts(Wire.rejected(5, "PRECONDITION", row: server)))
        _ = try await rig.engine.pushOnce()
        #expect(try await rig.todo(1) == server)
        #expect(await rig.store.outboxDepth == 0)
        let journal = await rig.store.journal
        #expect(journal.map(\.reason) == ["PRECONDITION"])
        #expect(journal.first?.mutationID == Client.mutationID(5))
        let rejected = await rig.store.events.filter { $0.code == "MUTATION_REJECTED" }
        #expect(rejected.map(\.mutationID) == [Client.mutationID(5)])
        #expect(await rig.store.lastMutationID == nil)
    }

    @Test("rejected with a null server_row deletes the row and a pending update does not resurrect it (push/002)")
    func rejectedNullNoResurrection() async throws {
        let rig = try Rig.make()
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "shared row"), 1)]))
        _ = try await rig.engine.pull()
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "my stale edit"]))
        try await rig.engine.write(Client.insert(3, row: 2, title: "new while offline"))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.rejected(2, "RLS_DENIED", row: nil), Wire.applied(3)))
        _ = try await rig.engine.pushOnce()
        #expect(try await rig.todo(1) == nil)
        #expect(try await rig.todo(2)?["title"] == "new while offline")
        #expect(await rig.store.lastMutationID == Client.mutationID(3))

        // A second edit queued before another rejection stays invisible too.
        let other = try Rig.make()
        await other.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "shared row"), 1)]))
        _ = try await other.engine.pull()
        try await other.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "a"]))
        try await other.engine.write(Client.write(3, "update", pk: Client.rowKey(1), columns: ["title": "b"]))
        await other.remote.enqueue(json: Wire.verdicts(Wire.rejected(2, "DELETE_WINS", row: nil), Wire.applied(3)))
        _ = try await other.engine.pushOnce()
        #expect(try await other.todo(1) == nil)
        #expect(try await other.store.isShadowed(table: "todos", pk: Client.rowKey(1)))
    }

    @Test("pushOnce sends at most 500 entries and never splits an atomic run")
    func headLimits() async throws {
        let rig = try Rig.make(path: ":memory:")
        for n in 1...502 { try await rig.engine.write(Client.insert(n, row: n)) }
        await rig.remote.enqueue(json: Wire.verdicts(list: (1...500).map { Wire.applied($0) }))
        let first = try await rig.engine.pushOnce()
        #expect(first.mutations == 500)
        #expect(await rig.store.outboxDepth == 2)
        for n in 503...505 { try await rig.engine.write(Client.insert(n, row: n), atomicGroup: "g") }
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(501), Wire.applied(502)))
        #expect(try await rig.engine.pushOnce().mutations == 2)
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(503), Wire.applied(504), Wire.applied(505)))
        let atomic = try await rig.engine.pushOnce()
        #expect(atomic.mutations == 3)
        let body = try #require(await rig.sent().last)
        #expect(body["batch"]?["atomic"] == true)
        #expect(body["batch"]?["mutations"]?.arrayValue?.count == 3)
    }

    @Test("a resend after REMOTE sends the same bytes and watermark")
    func resendSameBytes() async throws {
        let rig = try Rig.make()
        try await rig.engine.write(Client.insert(1, row: 1))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        _ = try await rig.engine.pushOnce()
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "x"]))
        await rig.remote.enqueue(.failure("drop-ack"))
        await rig.remote.enqueue(Wire.error(503, "PGRST000"))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(2)))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
        _ = try await rig.engine.pushOnce()
        let bodies = await rig.remote.sentBodies()
        #expect(bodies.count == 4)
        #expect(bodies[1] == bodies[2] && bodies[2] == bodies[3])
        #expect(bodies[1].contains(Client.mutationID(1)))
        #expect(try await rig.store.outbox().isEmpty)
    }

    @Test("hlc tables stamp a monotonic origin clock at write time and resend it unchanged")
    func hlcStamp() async throws {
        let hlc = TableConfig(table: "todos", bucketColumn: "owner_id", conflictMode: "hlc")
        let rig = try Rig.make(tables: [hlc])
        try await rig.engine.write(Client.insert(1, row: 1))
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "b"]))
        let stamps = try await rig.store.outbox().compactMap(\.mutation.hlc)
        #expect(stamps == ["2026-01-01T00:00:02.000Z|0|\(Rig.client)", "2026-01-01T00:00:02.000Z|1|\(Rig.client)"])
        await rig.remote.enqueue(.failure("lost"))
        await rig.remote.enqueue(.failure("lost"))
        _ = await failure { _ = try await rig.engine.pushOnce() }
        _ = await failure { _ = try await rig.engine.pushOnce() }
        let bodies = await rig.remote.sentBodies()
        #expect(bodies[0] == bodies[1] && bodies[0].contains("|0|\(Rig.client)"))
    }
}
