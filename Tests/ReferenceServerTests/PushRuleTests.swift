import Corpus
import JSON
import ServerContract
import Testing

@testable import ReferenceServer

@Suite("Push: the six rejection reasons, column masks, hlc mode and the gates")
struct PushRuleTests {
    @Test("a non-atomic batch mixes three reasons with applied verdicts, in request order")
    func mixedBatch() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("start"))])
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "update", Fixture.row1, ["title": "x"], precondition: ["title": "other"]),
                Fixture.mutation(2, "insert", Fixture.row2, Fixture.todo("fine")),
                Fixture.mutation(3, "update", Fixture.row3, ["title": "ghost"]),
                Fixture.mutation(4, "update", Fixture.row1, ["done": "yes"]),
                Fixture.mutation(5, "update", Fixture.row1, ["done": true]),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["PRECONDITION", "applied", "RLS_DENIED", "CONSTRAINT", "applied"])
        #expect(reply.verdicts[0]["server_row"]?["title"] == "start")
        #expect(reply.verdicts[2]["server_row"] == .null)
        #expect(reply.verdicts.map { $0["mutation_id"]?.stringValue } == (1...5).map { Fixture.mutation($0) })
    }

    @Test("an unknown column, or a key column in an update mask, is COLUMN_DENIED")
    func columnDenied() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("start"))])
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "update", Fixture.row1, ["secret": "x"]),
                Fixture.mutation(2, "update", Fixture.row1, ["id": .string(Fixture.row2)]),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["COLUMN_DENIED", "COLUMN_DENIED"])
        #expect(reply.verdicts[0]["server_row"]?["title"] == "start")
    }

    @Test("an insert into another user's bucket, or an edit of a hidden row, is RLS_DENIED")
    func rlsDenied() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("theirs", owner: Fixture.userB))])
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "insert", Fixture.row2, Fixture.todo("planted", owner: Fixture.userB)),
                Fixture.mutation(2, "update", Fixture.row1, ["title": "mine now"]),
                Fixture.mutation(3, "delete", Fixture.row1),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["RLS_DENIED", "RLS_DENIED", "RLS_DENIED"])
        #expect(reply.verdicts.allSatisfy { $0["server_row"] == .null })
    }

    @Test("a write after the caller's own delete in the same push is DELETE_WINS")
    func deleteWinsSamePush() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("start"))])
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "delete", Fixture.row1), Fixture.mutation(2, "update", Fixture.row1, ["title": "too late"]),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["applied", "DELETE_WINS"])
    }

    @Test("a deleted row the caller never received answers RLS_DENIED, not DELETE_WINS")
    func deletedUnseenRow() async throws {
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, Fixture.todo("start")), .delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB),
        ])
        let reply = try await server.push(Fixture.push([Fixture.mutation(1, "update", Fixture.row1, ["title": "x"])]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["RLS_DENIED"])
    }

    /// D-tombstone-delivery (kizunasync/kizunasync packages/protocol/decisions at 05bc51f1) and the
    /// SQL pack's push, which decides a deleted pk before the op: a write to a row whose latest
    /// change is a removal answers DELETE_WINS only to a user holding a grant for the bucket value
    /// it left, or to the push that deleted it; RLS_DENIED to anyone else, an insert included.
    /// `accord explore` found the reference re-creating the row and answering its own client's
    /// later push DELETE_WINS without a grant (issue 39).
    @Test("an insert over a deleted pk is a write like any other: RLS_DENIED without a grant, DELETE_WINS with one")
    func insertOverTombstone() async throws {
        let server = try await Fixture.server()
        let own = try await server.push(
            Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("mine"))]), as: Fixture.callerA)
        #expect(own.verdicts.map(\.outcome) == ["applied"])
        try await server.apply(.delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB), heldIn: nil)
        // The caller pushed the row but never pulled it: no grant, so the pk stays unconfirmed.
        let unseen = try await server.push(
            Fixture.push([Fixture.mutation(2, "insert", Fixture.row1, Fixture.todo("again"))]), as: Fixture.callerA)
        #expect(unseen.verdicts.map(\.outcome) == ["RLS_DENIED"])
        _ = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        // A pull delivering another live row of the bucket grants it: now DELETE_WINS.
        try await server.apply(Fixture.upsert(Fixture.row2, Fixture.todo("other")), heldIn: nil)
        _ = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        let seen = try await server.push(
            Fixture.push([Fixture.mutation(3, "insert", Fixture.row1, Fixture.todo("again"))]), as: Fixture.callerA)
        #expect(seen.verdicts.map(\.outcome) == ["DELETE_WINS"])
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(pulled.rowKeys == [Fixture.row2])
    }

    @Test("the caller's own delete in an earlier push gives DELETE_WINS only with a grant, as anyone's")
    func ownEarlierDelete() async throws {
        let server = try await Fixture.server()
        _ = try await server.push(Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("mine"))]), as: Fixture.callerA)
        let deleted = try await server.push(Fixture.push([Fixture.mutation(2, "delete", Fixture.row1)]), as: Fixture.callerA)
        #expect(deleted.verdicts.map(\.outcome) == ["applied"])
        let later = try await server.push(
            Fixture.push([Fixture.mutation(3, "update", Fixture.row1, ["title": "late"])]), as: Fixture.callerA)
        #expect(later.verdicts.map(\.outcome) == ["RLS_DENIED"])
    }

    @Test("hlc mode: losing columns are SUPERSEDED, partial winners apply, future clocks are clamped")
    func hlcMode() async throws {
        let config = Fixture.config(todos: TableConfig(table: "todos", bucketColumn: "owner_id", conflictMode: "hlc"))
        let server = try await Fixture.server(config)
        try await server.setStep(1)
        try await server.apply(
            .upsert(
                table: "todos", pk: Fixture.row1, columns: Fixture.todo("b"), actor: Fixture.clientB,
                hlc: "2026-01-01T00:00:01.000Z|0|\(Fixture.clientB)"), heldIn: nil)
        try await server.setStep(2)
        // A clock an hour ahead is clamped to the server's 00:00:02 plus the 5 s skew upstream
        // allows (`hlc_max_skew_ms`, its reference oracle's MAX_CLOCK_SKEW_MS): 00:00:07.
        var reply = try await server.push(
            Fixture.push([Fixture.mutation(1, "update", Fixture.row1, ["title": "future"], hlc: "2026-01-01T01:00:00.000Z|0|x")]),
            as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["applied"])
        try await server.setStep(5)
        reply = try await server.push(
            Fixture.push([
                Fixture.mutation(2, "update", Fixture.row1, ["title": "older"], hlc: "2026-01-01T00:00:01.500Z|0|y"),
                Fixture.mutation(3, "update", Fixture.row1, ["title": "newer"], hlc: "2026-01-01T00:00:08.000Z|0|y"),
                Fixture.mutation(4, "update", Fixture.row1, ["done": true, "title": "stale"], hlc: "2026-01-01T00:00:02.500Z|0|y"),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["SUPERSEDED", "applied", "applied"])
        #expect(reply.verdicts[0]["server_row"]?["title"] == "future")
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        let row = pulled.body["rows"]?.arrayValue?.first?["row"]
        #expect(row?["title"] == "newer")
        #expect(row?["done"] == true)
    }

    @Test("a write to a table resolved by hlc without a clock refuses the batch with 22023, as the pack's push guard does")
    func hlcWithoutClock() async throws {
        let config = Fixture.config(todos: TableConfig(table: "todos", bucketColumn: "owner_id", conflictMode: "hlc"))
        let server = try await Fixture.server(config)
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("a"), hlc: "2026-01-01T00:00:00.000Z|0|x"),
                Fixture.mutation(2, "update", Fixture.row1, ["title": "no clock"]),
            ]), as: Fixture.callerA)
        #expect(reply.status == 400)
        #expect(reply.body["code"] == "22023")
        #expect(reply.body["message"]?.stringValue?.contains("mutation 2 of the batch is malformed") == true)
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(pulled.rowKeys.isEmpty, "nothing of the batch applied")
    }

    @Test("an insert whose own row the caller could not see is RLS_DENIED with the rendered row, even over a row it sees")
    func insertProposedRow() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("mine"))])
        let reply = try await server.push(
            Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, ["title": "no owner"])]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["RLS_DENIED"])
        #expect(reply.verdicts.first?["server_row"]?["title"] == "mine")
    }

    @Test("a server that leaves a write changing nothing unstamped keeps the row's seq; the default stamps it")
    func noOpWrites() async throws {
        for (noOp, expected) in [(TargetCapabilities.NoOpWrites.unstamped, "1"), (.stamped, "2")] {
            let server = try ReferenceServer(noOpWrites: noOp)
            try await server.seed(Seed(server: Fixture.config(), history: [Fixture.upsert(Fixture.row1, Fixture.todo("same"))]))
            #expect(try await server.capabilities().noOpWrites == noOp)
            let reply = try await server.push(
                Fixture.push([Fixture.mutation(1, "update", Fixture.row1, ["title": "same"])]), as: Fixture.callerA)
            #expect(reply.verdicts.map(\.outcome) == ["applied"])
            let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
            #expect(pulled.body["rows"]?.arrayValue?.first?["seq"]?.stringValue == expected, "\(noOp)")
            #expect(pulled.cursor == expected)
        }
    }

    @Test("a device clock may run 5 s ahead of the server's before it is clamped, across a day and a month")
    func skewArithmetic() {
        #expect(OriginClock.adding(5000, to: "2026-01-01T00:00:05.000Z") == "2026-01-01T00:00:10.000Z")
        #expect(OriginClock.adding(5000, to: "2026-12-31T23:59:58.500Z") == "2027-01-01T00:00:03.500Z")
        #expect(OriginClock.adding(1, to: "2024-02-28T23:59:59.999Z") == "2024-02-29T00:00:00.000Z")
        #expect(OriginClock.adding(-1, to: "2026-03-01T00:00:00.000Z") == "2026-02-28T23:59:59.999Z")
        #expect(OriginClock.adding(5000, to: "2026-01-01T00:00:05Z") == nil)
    }

    @Test("transforms: arrayUnion keeps order without duplicates, arrayRemove removes, increment on text is CONSTRAINT")
    func transforms() async throws {
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, ["labels": ["a", "b"], "likes": 1, "owner_id": .string(Fixture.userA), "title": "t"])
        ])
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "update", Fixture.row1, transforms: ["labels": ["op": "arrayUnion", "values": ["b", "c"]]]),
                Fixture.mutation(2, "update", Fixture.row1, transforms: ["labels": ["op": "arrayRemove", "values": ["a"]]]),
                Fixture.mutation(3, "update", Fixture.row1, transforms: ["likes": ["by": "-3", "op": "increment"]]),
                Fixture.mutation(4, "update", Fixture.row1, transforms: ["title": ["by": 1, "op": "increment"]]),
                Fixture.mutation(5, "update", Fixture.row1, transforms: ["likes": ["by": "3000000000", "op": "increment"]]),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["applied", "applied", "applied", "CONSTRAINT", "CONSTRAINT"])
        #expect(reply.verdicts[0]["server_row"]?["labels"] == ["a", "b", "c"])
        #expect(reply.verdicts[1]["server_row"]?["labels"] == ["b", "c"])
        #expect(reply.verdicts[2]["server_row"]?["likes"] == -2)
    }

    @Test("gates: RESET_REQUIRED before any mutation, KZP01 for a pull-only table, 42P01 for an unknown one")
    func gates() async throws {
        let notices = TableConfig(table: "notices", bucketColumn: "owner_id", keyColumns: ["id"])
        let server = try await Fixture.server(Fixture.config(extra: [notices], minSchema: 2))
        let insert = Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("x"))
        let stale = try await server.push(Fixture.push([insert], schema: 1), as: Fixture.callerA)
        #expect(stale.body == ["signal": ["type": "RESET_REQUIRED"]])
        let pullOnly = try await server.push(
            Fixture.push([Fixture.mutation(2, "insert", "7", ["body": "x"], table: "notices")], schema: 2), as: Fixture.callerA)
        #expect(pullOnly.status == 400)
        #expect(pullOnly.body["code"] == "KZP01")
        let unknown = try await server.push(
            Fixture.push([Fixture.mutation(3, "insert", "1", table: "nope")], schema: 2), as: Fixture.callerA)
        #expect(unknown.body["code"] == "42P01")
        let after = try await server.push(Fixture.push([insert], schema: 2), as: Fixture.callerA)
        #expect(after.verdicts.map(\.outcome) == ["applied"])
    }

    @Test("a soft-delete table refuses a hard delete and keeps the row")
    func softDelete() async throws {
        let config = Fixture.config(todos: TableConfig(table: "todos", bucketColumn: "owner_id", softDeleteColumn: "deleted_at"))
        let server = try await Fixture.server(config, history: [Fixture.upsert(Fixture.row1, Fixture.todo("keep"))])
        let reply = try await server.push(Fixture.push([Fixture.mutation(1, "delete", Fixture.row1)]), as: Fixture.callerA)
        #expect(reply.verdicts.first?.outcome == "RLS_DENIED")
        #expect(reply.verdicts.first?["server_row"]?["title"] == "keep")
    }

    @Test("a composite key: components must spell the pk, and the pk text must be canonical")
    func compositeKey() async throws {
        let seats = TableConfig(table: "seats", bucketColumn: "owner_id", keyColumns: ["hall", "seat"])
        let server = try await Fixture.server(Fixture.config(extra: [seats]))
        let owner = JSONValue.string(Fixture.userA)
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "insert", "[\"1\", \"12\"]", ["hall": 1, "owner_id": owner, "seat": 12], table: "seats"),
                Fixture.mutation(2, "insert", "[\"1\", \"13\"]", ["hall": 1, "owner_id": owner, "seat": 12], table: "seats"),
                Fixture.mutation(3, "insert", "[\"1\",\"14\"]", ["owner_id": owner], table: "seats"),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["applied", "CONSTRAINT", "CONSTRAINT"])
    }
}

@Suite("Custom domains: a NOT NULL column and a read-only column")
struct CustomDomainTests {
    @Test("a NOT NULL violation is CONSTRAINT and a read-only column is COLUMN_DENIED")
    func customTable() async throws {
        let notes = ReferenceTable(
            name: "notes", columns: ["body": .text, "id": .uuid, "owner_id": .uuid, "stamp": .text], keyColumns: ["id"],
            bucketColumn: "owner_id", readOnlyColumns: ["stamp"], notNullColumns: ["body"])
        let server = try ReferenceServer(domain: ReferenceDomain(tables: [notes]))
        try await server.seed(Seed(server: ServerConfig(synced: [TableConfig(table: "notes", bucketColumn: "owner_id")])))
        let owner = JSONValue.string(Fixture.userA)
        let reply = try await server.push(
            Fixture.push([
                Fixture.mutation(1, "insert", Fixture.row1, ["owner_id": owner], table: "notes"),
                Fixture.mutation(2, "insert", Fixture.row2, ["body": "x", "owner_id": owner, "stamp": "s"], table: "notes"),
                Fixture.mutation(3, "insert", Fixture.row3, ["body": "ok", "owner_id": owner], table: "notes"),
            ]), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["CONSTRAINT", "COLUMN_DENIED", "applied"])
    }
}
