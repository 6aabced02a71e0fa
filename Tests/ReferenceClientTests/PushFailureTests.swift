import Corpus
import Foundation
import JSON
import Testing

@testable import ReferenceClient

@Suite("SyncEngine.pushOnce: atomic aborts, wire violations and dead letters")
struct PushFailureTests {
    /// A rig holding todo 1 ("unclaimed") at cursor 1.
    static func seeded(faults: Set<ClientFault> = [], extra: JSONObject = [:]) async throws -> Rig {
        let rig = try Rig.make(faults: faults)
        await rig.remote.enqueue(json: Wire.page(cursor: "1", rows: [(1, Wire.row(1, title: "unclaimed", extra: extra), 1)]))
        _ = try await rig.engine.pull()
        return rig
    }

    @Test("an atomic abort reverts the offender to server_row and the members to their pre-images (push/005)")
    func atomicAbort() async throws {
        let rig = try await Self.seeded()
        try await rig.engine.write(Client.insert(1, row: 2, title: "second task"), atomicGroup: "s7")
        try await rig.engine.write(
            Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "claimed by device-a"]), atomicGroup: "s7")
        let server = Wire.row(1, title: "claimed by device-b")
        await rig.remote.enqueue(json: Wire.aborted(2, "PRECONDITION", row: server))
        let result = try await rig.engine.pushOnce()
        #expect(result.outcome == .sent && result.mutations == 2)
        #expect(await rig.sent().last?["batch"]?["atomic"] == true)
        #expect(await rig.store.outboxDepth == 0)
        #expect(try await rig.todo(1) == server)
        #expect(try await rig.todo(2) == nil)
        let journal = await rig.store.journal
        #expect(journal.count == 1)
        #expect(journal.first?.pk == Client.rowKey(1) && journal.first?.mutationID == Client.mutationID(2))
        #expect(journal.first?.reason == "PRECONDITION")
        let aborted = await rig.store.events.filter { $0.code == "BATCH_ABORTED" }
        #expect(aborted.map(\.mutationID) == [Client.mutationID(2)])
        #expect(await rig.store.lastMutationID == nil)
    }

    @Test("an abort whose offender shares its row with an earlier member keeps the pre-image (increment/007)")
    func abortSharedRow() async throws {
        let rig = try await Self.seeded(extra: ["likes": 0])
        try await rig.engine.write(
            Client.write(20, "update", pk: Client.rowKey(1), transforms: ["likes": ["op": "increment", "by": 1]]), atomicGroup: "g")
        try await rig.engine.write(
            Client.write(21, "update", pk: Client.rowKey(1), transforms: ["title": ["op": "increment", "by": 1]]), atomicGroup: "g")
        await rig.remote.enqueue(json: Wire.aborted(21, "CONSTRAINT", row: Wire.row(1, title: "unclaimed", extra: ["likes": 1])))
        _ = try await rig.engine.pushOnce()
        #expect(try await rig.todo(1)?["likes"] == 0)
        #expect(await rig.store.outboxDepth == 0)
    }

    @Test("wire-contract violations throw their code, are never charged and change nothing")
    func wireViolations() async throws {
        let cases: [(String, String, Bool)] = [
            (Wire.verdicts(Wire.applied(9)), "VERDICT_BIJECTION", false),
            (Wire.verdicts(Wire.applied(1), Wire.applied(2)), "VERDICT_BIJECTION", false),
            (Wire.verdicts(Wire.applied(2), Wire.applied(1)), "VERDICT_BIJECTION", false),
            (Wire.verdicts(Wire.applied(1), Wire.applied(2), Wire.applied(3), Wire.applied(3)), "VERDICT_BIJECTION", false),
            (Wire.aborted(1, "PRECONDITION", row: nil), "MALFORMED_PUSH_RESPONSE", false),
            (Wire.aborted(9, "PRECONDITION", row: nil), "UNKNOWN_BATCH_OFFENDER", true),
            (Wire.verdicts(Wire.rejected(1, "NOPE", row: nil), Wire.applied(2), Wire.applied(3)), "UNKNOWN_VERDICT_REASON", false),
            (Wire.signal("CHECKPOINT_EXPIRED"), "UNKNOWN_SIGNAL", false),
            (Wire.signal("WAKE_UP"), "UNKNOWN_SIGNAL", false),
            (#"{"verdicts":[],"signal":null}"#, "MALFORMED_PUSH_RESPONSE", false),
            ("not json", "JSON", false),
        ]
        for (body, code, atomic) in cases {
            let rig = try await Self.seeded()
            for n in 1...3 {
                try await rig.engine.write(
                    Client.write(n, "update", pk: Client.rowKey(1), columns: ["title": .string("edit \(n)")]),
                    atomicGroup: atomic ? "g" : nil)
            }
            let before = try await rig.store.outbox()
            await rig.remote.enqueue(json: body)
            #expect(await failure { _ = try await rig.engine.pushOnce() } == code, "\(body)")
            #expect(try await rig.store.outbox() == before)
            #expect(try await rig.todo(1)?["title"] == "edit 3")
            #expect(await rig.store.journal.isEmpty)
            #expect(await rig.store.lastMutationID == nil)
        }
    }

    @Test("the fifth consecutive permanent failure dead-letters the head entry; retryable ones are never charged")
    func deadLetter() async throws {
        let rig = try await Self.seeded()
        try await rig.engine.write(Client.write(1, "update", pk: Client.rowKey(1), columns: ["title": "bad"]))
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["done": true]))
        for code in ["42501", "PGRST301", "PGRST106", "KZP03"] { await rig.remote.enqueue(Wire.error(401, code)) }
        await rig.remote.enqueue(Wire.error(500, "XX000"))
        for _ in 1...5 { #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE") }
        #expect(try await rig.store.outbox().map(\.attempts) == [0, 0])
        for attempt in 1...4 {
            await rig.remote.enqueue(Wire.error(400, "23514"))
            #expect(await failure { _ = try await rig.engine.pushOnce() } == "PERMANENT_TRANSPORT")
            #expect(try await rig.store.outbox().map(\.attempts) == [attempt, 0])
        }
        #expect(await rig.store.journal.isEmpty)
        await rig.remote.enqueue(Wire.error(400, "P0001"))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "PERMANENT_TRANSPORT")
        #expect(try await rig.store.outbox().map(\.mutation.mutationID) == [Client.mutationID(2)])
        #expect(await rig.store.journal.map(\.reason) == ["DEAD_LETTER"])
        #expect(await rig.store.events.filter { $0.code == "DEAD_LETTER" }.map(\.mutationID) == [Client.mutationID(1)])
        #expect(try await rig.todo(1) == Wire.row(1, title: "unclaimed", extra: ["done": true]))
    }

    @Test("KZP02 on an atomic batch dead-letters the whole group at once")
    func kzp02Atomic() async throws {
        let rig = try await Self.seeded()
        try await rig.engine.write(Client.insert(1, row: 2), atomicGroup: "g")
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "x"]), atomicGroup: "g")
        try await rig.engine.write(Client.insert(3, row: 3))
        await rig.remote.enqueue(Wire.error(400, "KZP02"))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "PERMANENT_TRANSPORT")
        #expect(try await rig.store.outbox().map(\.mutation.mutationID) == [Client.mutationID(3)])
        #expect(await rig.store.journal.map(\.reason) == ["DEAD_LETTER", "DEAD_LETTER"])
        #expect(try await rig.todo(1)?["title"] == "unclaimed")
        #expect(try await rig.todo(2) == nil)
    }
}
