import Corpus
import Foundation
import ReferenceServer
import ServerContract
import Testing

@Suite("Tombstones, delivery grants, bucket move-out and held-transaction holes")
struct TombstoneAndFencingTests {
    @Test("a tombstone reaches only a caller who received a live row of its bucket")
    func deliveryGrant() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("a"))])
        _ = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        try await server.setStep(4)
        try await server.apply(.delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB), heldIn: nil)
        let granted = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerA)
        #expect(granted.tombstoneKeys == [Fixture.row1])
        #expect(granted.body["tombstones"]?.arrayValue?.first?["deleted_at"] == "2026-01-01T00:00:04.000Z")
        // Grants are the user's (D-tombstone-delivery, kizunasync/kizunasync packages/protocol/
        // decisions at 05bc51f1: "one row per user, table, and value"; the SQL pack's
        // `_bucket_grants`): another device of the same user gets the tombstone too. The reference
        // kept them per device until `accord explore` found the pack disagreeing (issue 39).
        let otherDevice = Identity(user: Fixture.userA, session: "00000000-0000-4000-8000-c10000000009")
        let sameUser = try await server.pull(Fixture.pull(cursor: "1"), as: otherDevice)
        #expect(sameUser.tombstoneKeys == [Fixture.row1])
        #expect(sameUser.cursor == "2")
        // Another user never received a live row of the bucket: no tombstone, the cursor still advances.
        let otherUser = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerB)
        #expect(otherUser.tombstoneKeys.isEmpty)
        #expect(otherUser.cursor == "2")
    }

    @Test("a first pull carries no tombstone of a bucket value it had not received before, even behind a row of it on the same page")
    func grantsAfterThePage() async throws {
        // D-tombstone-delivery; the SQL pack records a page's grants after its loop. The reference
        // granted mid-page until `accord explore` found it (issue 39).
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, Fixture.todo("stays")), Fixture.upsert(Fixture.row2, Fixture.todo("moves")),
            Fixture.upsert(Fixture.row2, ["owner_id": .string(Fixture.userB)]),
        ])
        let first = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(first.rowKeys == [Fixture.row1])
        #expect(first.tombstoneKeys.isEmpty)
    }

    @Test("a row deleted, re-created and deleted again from one bucket value leaves one tombstone, the newest")
    func tombstoneRefreshed() async throws {
        // D-bucket-move-out: "Tombstones are keyed by (table, pk, bucket value)".
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, Fixture.todo("a")), .delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB),
            Fixture.upsert(Fixture.row1, Fixture.todo("b")), .delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB),
            Fixture.upsert(Fixture.row2, Fixture.todo("grants the bucket")),
        ])
        _ = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        let again = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(again.tombstoneKeys == [Fixture.row1])
        #expect(again.body["tombstones"]?.arrayValue?.first?["seq"] == "4")
    }

    @Test("a bucket move-out leaves the old bucket a tombstone, stamped before the moved row")
    func moveOut() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("a"))])
        _ = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        try await server.apply(Fixture.upsert(Fixture.row1, ["owner_id": .string(Fixture.userB)]), heldIn: nil)
        let reply = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerA)
        #expect(reply.tombstoneKeys == [Fixture.row1])
        #expect(reply.body["tombstones"]?.arrayValue?.first?["seq"] == "2")
        #expect(reply.cursor == "3")
        let newOwner = try await server.pull(Fixture.pull(cursor: "0", owner: Fixture.userB), as: Fixture.callerB)
        #expect(newOwner.body["rows"]?.arrayValue?.first?["seq"] == "3")
    }

    @Test("two held transactions leave two holes; both are delivered once they commit")
    func twoHoles() async throws {
        let server = try await Fixture.server(nextSeq: 5)
        try await server.apply(Fixture.upsert(Fixture.row1, Fixture.todo("t1")), heldIn: "t1")
        try await server.apply(Fixture.upsert(Fixture.row2, Fixture.todo("t2")), heldIn: "t2")
        try await server.apply(Fixture.upsert(Fixture.row3, Fixture.todo("committed")), heldIn: nil)
        let gapped = try await server.pull(Fixture.pull(cursor: "4"), as: Fixture.callerA)
        #expect(gapped.cursor == "7~5.6")
        #expect(gapped.body["has_more"] == true)
        #expect(gapped.rowKeys == [Fixture.row3])
        try await server.commit(transaction: "t2")
        let half = try await server.pull(Fixture.pull(cursor: "7~5.6"), as: Fixture.callerA)
        #expect(half.rowKeys == [Fixture.row2])
        #expect(half.cursor == "7~5")
        try await server.commit(transaction: "t1")
        let closed = try await server.pull(Fixture.pull(cursor: "7~5"), as: Fixture.callerA)
        #expect(closed.rowKeys == [Fixture.row1])
        #expect(closed.cursor == "7")
        #expect(closed.body["has_more"] == false)
    }

    @Test("a page that stops inside hole fills continues from its last fill, as upstream's SQL pack encodes it")
    func continuationInsideHoleFills() async throws {
        // kizunasync/kizunasync packages/supabase-pack/supabase/migrations/0001_kizuna_init.sql at
        // 05bc51f1: `_encode_continuation(start, last seq)`; the reference answered `7:7` before
        // (issue 39: `accord explore` found I-3 and I-9d asking for different cursors).
        let server = try await Fixture.server(nextSeq: 5)
        try await server.apply(Fixture.upsert(Fixture.row1, Fixture.todo("t1")), heldIn: "t1")
        try await server.apply(Fixture.upsert(Fixture.row2, Fixture.todo("t2")), heldIn: "t2")
        try await server.apply(Fixture.upsert(Fixture.row3, Fixture.todo("committed")), heldIn: nil)
        let gapped = try await server.pull(Fixture.pull(cursor: "4"), as: Fixture.callerA)
        #expect(gapped.cursor == "7~5.6")
        try await server.commit(transaction: "t1")
        try await server.commit(transaction: "t2")
        let first = try await server.pull(Fixture.pull(cursor: "7~5.6", limit: 1), as: Fixture.callerA)
        #expect(first.rowKeys == [Fixture.row1])
        #expect(first.cursor == "7:5")
        #expect(first.body["has_more"] == true)
        let second = try await server.pull(Fixture.pull(cursor: "7:5", limit: 1), as: Fixture.callerA)
        #expect(second.rowKeys == [Fixture.row2])
        #expect(second.cursor == "7:6")
        let closing = try await server.pull(Fixture.pull(cursor: "7:6", limit: 5), as: Fixture.callerA)
        #expect(closing.rowKeys == [Fixture.row3])
        #expect(closing.cursor == "7")
        #expect(closing.body["has_more"] == false)
    }

    @Test("a held transaction's seq above the committed high-water is no hole")
    func heldAboveHighWater() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("a"))])
        try await server.apply(Fixture.upsert(Fixture.row2, Fixture.todo("held")), heldIn: "t")
        let reply = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(reply.cursor == "1")
        #expect(reply.body["has_more"] == false)
        try await server.commit(transaction: "t")
        let after = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerA)
        #expect(after.rowKeys == [Fixture.row2])
        await #expect(throws: TargetError.self) { try await server.commit(transaction: "t") }
    }

    @Test("a file-backed server keeps its rows across reopening")
    func persistence() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-reference-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        do {
            let server = try ReferenceServer(path: path)
            try await server.seed(Seed(server: Fixture.config()))
            _ = try await server.push(
                Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("kept"))]), as: Fixture.callerA)
        }
        let reopened = try ReferenceServer(path: path)
        let reply = try await reopened.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(reply.rowKeys == [Fixture.row1])
        let replay = try await reopened.push(
            Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("kept"))]), as: Fixture.callerA)
        #expect(replay.verdicts.map(\.outcome) == ["applied"])
        #expect(try await reopened.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA).cursor == "1")
    }
}
