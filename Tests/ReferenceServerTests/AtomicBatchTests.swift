import Corpus
import ReferenceServer
import ServerContract
import Testing

@Suite("Atomic batches: one abort outcome naming the offender, no sibling effect")
struct AtomicBatchTests {
    @Test("the first rejection aborts the batch; nothing commits and nothing is recorded")
    func abort() async throws {
        let server = try await Fixture.server(history: [Fixture.upsert(Fixture.row1, Fixture.todo("start"))])
        let body = Fixture.push(
            [
                Fixture.mutation(1, "insert", Fixture.row2, Fixture.todo("sibling")),
                Fixture.mutation(2, "update", Fixture.row1, ["title": "x"], precondition: ["title": "nope"]),
                Fixture.mutation(3, "update", Fixture.row3, ["title": "never reached"]),
            ], atomic: true)
        let reply = try await server.push(body, as: Fixture.callerA)
        #expect(
            reply.body == [
                "batch": [
                    "offender_mutation_id": .string(Fixture.mutation(2)), "outcome": "aborted", "reason": "PRECONDITION",
                    "server_row": .object(Fixture.todo("start")),
                ]
            ])
        let pulled = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerA)
        #expect(pulled.rowKeys.isEmpty)
        #expect(pulled.cursor == "1")
        // Nothing was recorded: the sibling's id applies when sent again on its own.
        let retry = try await server.push(
            Fixture.push([Fixture.mutation(1, "insert", Fixture.row2, Fixture.todo("sibling"))]), as: Fixture.callerA)
        #expect(retry.verdicts.map(\.outcome) == ["applied"])
    }

    @Test("an atomic batch that applies answers one verdict per mutation")
    func applies() async throws {
        let server = try await Fixture.server()
        let reply = try await server.push(
            Fixture.push(
                [
                    Fixture.mutation(1, "insert", Fixture.row1, Fixture.todo("a")),
                    Fixture.mutation(2, "insert", Fixture.row2, Fixture.todo("b")),
                ],
                atomic: true), as: Fixture.callerA)
        #expect(reply.verdicts.map(\.outcome) == ["applied", "applied"])
    }

    @Test("an atomic batch over max_batch_size is refused with KZP02")
    func oversize() async throws {
        let server = try await Fixture.server()
        let mutations = (0..<501).map { Fixture.mutation(1, "update", "00000000-0000-4000-8000-e1000000\(1000 + $0)", ["title": "x"]) }
        let reply = try await server.push(Fixture.push(mutations, atomic: true), as: Fixture.callerA)
        #expect(reply.status == 400)
        #expect(reply.body["code"] == "KZP02")
    }
}
