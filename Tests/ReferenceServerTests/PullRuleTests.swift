import Corpus
import JSON
import ReferenceServer
import ServerContract
import Testing

@Suite("Pull: argument checks, signals, keyset pages and the scan cap")
struct PullRuleTests {
    @Test("more than 64 buckets, or a limit below 1, is refused with 22023")
    func argumentChecks() async throws {
        let server = try await Fixture.server()
        let bucket: JSONValue = ["params": ["owner_id": .string(Fixture.userA)], "table": "todos"]
        let tooMany: JSONValue = ["buckets": .array(Array(repeating: bucket, count: 65)), "cursor": "0", "schema_version": 1]
        let many = try await server.pull(tooMany, as: Fixture.callerA)
        #expect(many.status == 400)
        #expect(many.body["code"] == "22023")
        #expect(Set(many.body.objectValue?.keys ?? []) == ["code", "details", "hint", "message"])
        let zero = try await server.pull(Fixture.pull(cursor: "0", limit: 0), as: Fixture.callerA)
        #expect(zero.status == 400)
        #expect(zero.body["code"] == "22023")
        let exactly64: JSONValue = ["buckets": .array(Array(repeating: bucket, count: 64)), "cursor": "0", "schema_version": 1]
        #expect(try await server.pull(exactly64, as: Fixture.callerA).status == 200)
    }

    @Test("a bucketed table pulled without its bucket column is refused with KZL01")
    func unscopedPull() async throws {
        let server = try await Fixture.server()
        let body: JSONValue = ["buckets": [["params": [:], "table": "todos"]], "cursor": "0", "schema_version": 1]
        let reply = try await server.pull(body, as: Fixture.callerA)
        #expect(reply.status == 400)
        #expect(reply.body["code"] == "KZL01")
    }

    @Test("RESET_REQUIRED rides an empty page and echoes the cursor")
    func resetRequired() async throws {
        let server = try await Fixture.server(Fixture.config(minSchema: 3), history: [Fixture.upsert(Fixture.row1, Fixture.todo("x"))])
        let reply = try await server.pull(Fixture.pull(cursor: "0:1", schema: 2), as: Fixture.callerA)
        #expect(
            reply.body == ["cursor": "0:1", "has_more": false, "rows": [], "signal": ["type": "RESET_REQUIRED"], "tombstones": []])
    }

    @Test("CHECKPOINT_EXPIRED when the transfer's start predates the reap horizon, never from 0")
    func checkpointExpired() async throws {
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, Fixture.todo("a")), Fixture.upsert(Fixture.row2, Fixture.todo("b")),
            .delete(table: "todos", pk: Fixture.row1, actor: Fixture.clientB), .reap,
        ])
        let expired = try await server.pull(Fixture.pull(cursor: "2"), as: Fixture.callerA)
        #expect(expired.body["signal"] == ["type": "CHECKPOINT_EXPIRED"])
        #expect(expired.cursor == "2")
        let atHorizon = try await server.pull(Fixture.pull(cursor: "3"), as: Fixture.callerA)
        #expect(atHorizon.body["signal"] == .null)
        let continuation = try await server.pull(Fixture.pull(cursor: "0:1"), as: Fixture.callerA)
        #expect(continuation.body["signal"] == .null)
        #expect(continuation.cursor == "3")
        #expect(continuation.rowKeys == [Fixture.row2])
    }

    @Test("pages: limit, continuation tokens, exact fit, other users' rows never delivered")
    func pages() async throws {
        let server = try await Fixture.server(history: [
            Fixture.upsert(Fixture.row1, Fixture.todo("a")), Fixture.upsert(Fixture.row2, Fixture.todo("hidden", owner: Fixture.userB)),
            Fixture.upsert(Fixture.row3, Fixture.todo("c")),
        ])
        let first = try await server.pull(Fixture.pull(cursor: "0", limit: 1), as: Fixture.callerA)
        #expect(first.cursor == "0:1")
        #expect(first.body["has_more"] == true)
        let second = try await server.pull(Fixture.pull(cursor: "0:1", limit: 1), as: Fixture.callerA)
        #expect(second.rowKeys == [Fixture.row3])
        #expect(second.cursor == "3")
        #expect(second.body["has_more"] == false)
    }

    @Test("the scan cap ends a page early with has_more, counting hidden candidates")
    func scanCap() async throws {
        let server = try await Fixture.server(
            Fixture.config(maxPullScan: 2),
            history: [
                Fixture.upsert(Fixture.row1, Fixture.todo("hidden", owner: Fixture.userB)),
                Fixture.upsert(Fixture.row2, Fixture.todo("hidden", owner: Fixture.userB)),
                Fixture.upsert(Fixture.row3, Fixture.todo("mine")),
            ])
        let first = try await server.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(first.rowKeys.isEmpty)
        #expect(first.body["has_more"] == true)
        #expect(first.cursor == "0:2")
        let second = try await server.pull(Fixture.pull(cursor: "0:2"), as: Fixture.callerA)
        #expect(second.rowKeys == [Fixture.row3])
        #expect(second.cursor == "3")
    }

    @Test("the conflict journal rides the winning page when the table journals, and is omitted otherwise")
    func conflictJournal() async throws {
        let journaled = Fixture.config(todos: TableConfig(table: "todos", bucketColumn: "owner_id", conflictJournal: true))
        for (config, expected) in [(journaled, true), (Fixture.config(), false)] {
            let server = try await Fixture.server(config, history: [Fixture.upsert(Fixture.row1, Fixture.todo("b's"))])
            _ = try await server.push(Fixture.push([Fixture.mutation(1, "update", Fixture.row1, ["title": "a's"])]), as: Fixture.callerA)
            let reply = try await server.pull(Fixture.pull(cursor: "1"), as: Fixture.callerA)
            #expect((reply.body["conflicts"] != nil) == expected)
            if expected {
                #expect(
                    reply.body["conflicts"] == [
                        [
                            "column_name": "title", "conflict_mode": "arrival", "loser_value": "b's", "pk": .string(Fixture.row1),
                            "table": "todos", "winner_mutation_id": .string(Fixture.mutation(1)), "winner_seq": "2",
                        ]
                    ])
            }
        }
    }
}
