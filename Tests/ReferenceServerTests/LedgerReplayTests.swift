import Corpus
import ReferenceServer
import ServerContract
import Testing

@Suite("Verdict ledger: replays return the recorded verdict, to its owner only")
struct LedgerReplayTests {
    @Test("an owner's replay returns the recorded verdict and applies nothing again")
    func ownerReplay() async throws {
        let server = try await Fixture.server()
        let body = Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("once"))])
        let first = try await server.push(body, as: Fixture.callerA)
        let second = try await server.push(body, as: Fixture.callerA)
        #expect(first == second)
        #expect(second.verdicts.map(\.outcome) == ["applied"])
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(pulled.cursor == "1")
    }

    @Test("a replayed server_row is rendered from the row as it is now")
    func replayRendersCurrentRow() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, ["likes": 0, "owner_id": .string(Fixture.userA)])])
        let body = Fixture.push([
            Fixture.mutation(1, "update", Fixture.row1, transforms: ["likes": ["by": 1, "op": "increment"]])
        ])
        let first = try await server.push(body, as: Fixture.callerA)
        #expect(first.verdicts.first?["server_row"]?["likes"] == 1)
        try await server.apply(Fixture.upsert(Fixture.row1, ["likes": 40]), heldIn: nil)
        let replay = try await server.push(body, as: Fixture.callerA)
        #expect(replay.verdicts.first?.outcome == "applied")
        #expect(replay.verdicts.first?["server_row"]?["likes"] == 40)
    }

    @Test("a rejected verdict replays as rejected with the same reason")
    func rejectedReplay() async throws {
        let server = try await Fixture.server()
        let body = Fixture.push([Fixture.mutation(1, "update", Fixture.row3, ["title": "ghost"])])
        _ = try await server.push(body, as: Fixture.callerA)
        try await server.apply(Fixture.upsert(Fixture.row3, Fixture.todo("now real")), heldIn: nil)
        let replay = try await server.push(body, as: Fixture.callerA)
        #expect(replay.verdicts.first?.outcome == "RLS_DENIED")
        #expect(replay.verdicts.first?["server_row"]?["title"] == "now real")
    }

    @Test("another user's replay of a mutation id gets RLS_DENIED with a null server_row")
    func otherUserReplay() async throws {
        let server = try await Fixture.server()
        let body = Fixture.push([Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("mine"))])
        _ = try await server.push(body, as: Fixture.callerA)
        let stolen = try await server.push(body, as: Fixture.callerB)
        #expect(stolen.status == 200)
        #expect(stolen.verdicts.first?.outcome == "RLS_DENIED")
        #expect(stolen.verdicts.first?["server_row"] == .null)
    }

    @Test("a duplicate id inside one batch is refused (it would break the verdict bijection) and writes nothing")
    func duplicateInBatch() async throws {
        let server = try await Fixture.server()
        let insert = Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("once"))
        let reply = try await server.push(Fixture.push([insert, insert]), as: Fixture.callerA)
        #expect(reply.status == 400)
        #expect(reply.body["code"] == "22023")
        let pulled = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(pulled.cursor == "0")
    }
}
