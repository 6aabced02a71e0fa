import Corpus
import JSON
import KizunaWire
import ReferenceServer
import ServerContract
import Testing

/// Regressions for what a review of the reference server found by crafting requests.
@Suite("Reference server: review regressions")
struct ReviewRegressionTests {
    @Test("an atomic abort reports the offender's row as the failing statement saw it, and commits nothing")
    func abortRowAsSeenAndNothingCommits() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("orig"))])
        let reply = try await server.push(
            Fixture.push(
                [
                    Fixture.mutation(1, "update", Fixture.row1, ["title": "sibling"]),
                    Fixture.mutation(2, "update", Fixture.row1, ["done": true], precondition: ["title": "orig"]),
                ], atomic: true), as: Fixture.callerA)
        #expect(reply.body["batch"]?["reason"] == "PRECONDITION")
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        let row = pulled.body["rows"]?.arrayValue?.first?["row"]
        #expect(row?["title"] == "orig", "the sibling's write was rolled back: \(pulled.body)")
    }

    @Test("a mutation id repeated inside one batch is refused with 22023, atomic or not")
    func duplicateIDsRefused() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("t"))])
        for atomic in [true, false] {
            let twice = Fixture.mutation(1, "update", Fixture.row1, transforms: ["likes": ["by": 1, "op": "increment"]])
            let reply = try await server.push(Fixture.push([twice, twice], atomic: atomic), as: Fixture.callerA)
            #expect(reply.status == 400)
            #expect(reply.body["code"] == "22023")
        }
    }

    @Test("a huge limit answers a page instead of crashing")
    func hugeLimit() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("t"))])
        var body = Fixture.pull(cursor: "0")
        body = body.replacing(at: JSONPointer(tokens: ["limit"]), with: .number(JSONNumber(literal: "9223372036854775807")))
        let reply = try await server.pull(body, as: Fixture.callerA)
        #expect(reply.status == 200)
        #expect(reply.rowKeys == [Fixture.row1])
    }

    @Test("an exhausted sequence is a 500 reply, not a crash")
    func exhaustedSequence() async throws {
        let server = try ReferenceServer()
        try await server.seed(Seed(server: Fixture.config(), nextSeq: SequenceNumber(UInt64(Int64.max - 1))))
        let first = try await server.push(
            Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("a"))]), as: Fixture.callerA)
        #expect(first.status == 200)
        let second = try await server.push(
            Fixture.push([Fixture.mutation(2, "insert", Fixture.row2, Fixture.todo("b"))]), as: Fixture.callerA)
        #expect(second.status == 500)
    }

    @Test("a refused seed leaves the previous configuration, clock and held transactions")
    func refusedSeedChangesNothing() async throws {
        let server = try await Fixture.server()
        try await server.apply(Fixture.upsert(Fixture.row1, Fixture.todo("held")), heldIn: "t1")
        await #expect(throws: TargetError.self) {
            try await server.seed(
                Seed(server: Fixture.config(minSchema: 5), history: [.delete(table: "todos", pk: Fixture.row3, actor: Fixture.clientB)]))
        }
        let pull = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(pull.body["signal"] == .null, "min_schema_version stayed 1: \(pull.body)")
        try await server.commit(transaction: "t1")
    }

    @Test("a committed hole from another table closes the cursor")
    func foreignHoleCloses() async throws {
        let server = try await Fixture.server(Fixture.config(extra: [TableConfig(table: "tags", bucketColumn: "owner_id")]))
        try await server.apply(
            .upsert(
                table: "tags", pk: Fixture.row3, columns: ["label": "x", "owner_id": .string(Fixture.userA)], actor: Fixture.clientB,
                hlc: nil),
            heldIn: "t1")
        try await server.apply(Fixture.upsert(Fixture.row1, Fixture.todo("t")), heldIn: nil)
        let open = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(open.cursor == "2~1")
        try await server.commit(transaction: "t1")
        let closed = try await server.pull(Fixture.pull(cursor: "2~1"), as: Fixture.callerA)
        #expect(closed.cursor == "2", "\(closed.body)")
        #expect(closed.body["has_more"] == false)
    }

    @Test("a call with no client_id and no session_id claim is refused")
    func missingClientIdentity() async throws {
        let server = try await Fixture.server()
        let anonymous = Identity(user: Fixture.userA, session: nil)
        let push = try await server.push(Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("a"))]), as: anonymous)
        #expect(push.status == 400)
        let pull = try await server.pull(Fixture.pull(cursor: "0"), as: anonymous)
        #expect(pull.status == 400)
    }

    @Test("without the fixture clock, server times are wall-clock UTC")
    func wallClockWithoutFixtures() async throws {
        let server = try ReferenceServer()
        _ = try await server.push(Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("a"))]), as: Fixture.callerA)
        let first = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        _ = try await server.push(Fixture.push([Fixture.mutation(2, "delete", Fixture.row1)]), as: Fixture.callerA)
        let second = try await server.pull(Fixture.pull(cursor: first.cursor ?? "0"), as: Fixture.callerA)
        let deletedAt = try #require(second.body["tombstones"]?.arrayValue?.first?["deleted_at"]?.stringValue, "\(second.body)")
        #expect(deletedAt != "2026-01-01T00:00:00.000Z")
        #expect(deletedAt.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z/) != nil, "\(deletedAt)")
    }
}
