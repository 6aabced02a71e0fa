import Corpus
import Foundation
import Testing

@testable import ReferenceClient

@Suite("ClientStore: local writes, the outbox and durability")
struct ClientStoreTests {
    @Test("writes apply to rows and queue the given mutation ids in issue order")
    func writesAndOrder() async throws {
        let store = try Client.store()
        try await store.write(Client.insert(1, row: 1, title: "a"))
        try await store.write(Client.insert(2, row: 2, title: "b"))
        try await store.write(Client.write(3, "update", pk: Client.rowKey(1), columns: ["title": "a2"]))
        try await store.write(Client.write(4, "delete", pk: Client.rowKey(2)))
        let outbox = try await store.outbox()
        #expect(outbox.map(\.mutation.mutationID) == (1...4).map(Client.mutationID))
        #expect(outbox.map(\.mutation.op) == [.insert, .insert, .update, .delete])
        #expect(await store.outboxDepth == 4)
        #expect(try await store.row(table: "todos", pk: Client.rowKey(1))?["title"] == "a2")
        #expect(try await store.row(table: "todos", pk: Client.rowKey(2)) == nil)
        #expect(try await store.rows(table: "todos").count == 1)
        let events = await store.events
        #expect(events.filter { $0.code == "LOCAL_CHANGED" }.map(\.mutationID) == (1...4).map(Client.mutationID))
        #expect(events.filter { $0.code == "QUEUE_DEPTH" }.compactMap { $0.data?["depth"]?.numberValue?.intValue } == [1, 2, 3, 4])
    }

    @Test("refused writes leave rows and outbox untouched, with the engine code")
    func refusals() async throws {
        let store = try Client.store()
        try await store.write(Client.insert(1, row: 1, table: "notes"))
        let before = try await store.rows(table: "notes")
        let delete = try Client.write(2, "delete", table: "notes", pk: Client.rowKey(1))
        #expect(await store.refusal(delete) == "SOFT_DELETE_VIOLATION")
        #expect(await store.outboxDepth == 1)
        #expect(try await store.outbox().count == 1)
        #expect(try await store.rows(table: "notes") == before)
        let cases: [(LocalWrite, String)] = [
            (try Client.insert(3, row: 3, table: "nope"), "UNKNOWN_TABLE"),
            (try Client.insert(1, row: 4, table: "notes"), "LOCAL_CONSTRAINT"),
            (try Client.insert(5, row: 1, table: "notes"), "LOCAL_CONSTRAINT"),
            (try Client.write(6, "update", table: "notes", pk: Client.rowKey(1), columns: ["id": "x"]), "LOCAL_CONSTRAINT"),
        ]
        for (write, code) in cases {
            #expect(await store.refusal(write) == code, "\(write.mutationID)")
        }
        #expect(await store.outboxDepth == 1)
        #expect(try await store.rows(table: "notes") == before)
    }

    @Test("increment, arrayUnion and arrayRemove apply optimistically")
    func transforms() async throws {
        let store = try Client.store()
        let key = Client.rowKey(1)
        try await store.write(
            Client.write(
                1, "insert", pk: key, columns: ["id": .string(key), "owner_id": .string(Client.owner), "count": 1, "tags": ["a", "b"]]))
        try await store.write(
            Client.write(
                2, "update", pk: key,
                transforms: [
                    "count": ["op": "increment", "by": 41], "tags": ["op": "arrayUnion", "values": ["b", "c"]],
                    "missing": ["op": "increment", "by": "5"],
                ]))
        try await store.write(Client.write(3, "update", pk: key, transforms: ["tags": ["op": "arrayRemove", "values": ["a"]]]))
        let row = try #require(try await store.row(table: "todos", pk: key))
        #expect(row["count"] == 42)
        #expect(row["missing"] == 5)
        #expect(row["tags"] == ["b", "c"])
        let queued = try await store.outbox()[1].mutation
        #expect(queued.transforms.map(\.column) == ["count", "missing", "tags"])  // stored canonically: keys sorted
        #expect(queued.columns.count == 0)
    }

    @Test("head() takes a whole atomic run, never splits it, and stops at 500 ordinary entries")
    func head() async throws {
        let store = try Client.store()
        for n in 1...3 { try await store.write(Client.insert(n, row: n), atomicGroup: "g1") }
        for n in 4...506 { try await store.write(Client.insert(n, row: n)) }
        for n in 507...508 { try await store.write(Client.insert(n, row: n), atomicGroup: "g2") }
        #expect(try await store.head().map(\.mutation.mutationID) == (1...3).map(Client.mutationID))
        #expect(try await store.head(maxEntries: 2).count == 3)
        #expect(await store.outboxDepth == 508)

        let ordinary = try Client.store()
        for n in 1...501 { try await ordinary.write(Client.insert(n, row: n)) }
        try await ordinary.write(Client.insert(502, row: 502), atomicGroup: "g")
        let head = try await ordinary.head()
        #expect(head.count == 500)
        #expect(head.first?.mutation.mutationID == Client.mutationID(1))
        #expect(head.last?.mutation.mutationID == Client.mutationID(500))

        let short = try Client.store()
        try await short.write(Client.insert(1, row: 1))
        try await short.write(Client.insert(2, row: 2), atomicGroup: "g")
        try await short.write(Client.insert(3, row: 3), atomicGroup: "g")
        try await short.write(Client.insert(4, row: 4), atomicGroup: "h")
        #expect(try await short.head().map(\.mutation.mutationID) == [Client.mutationID(1)])
        #expect(try await Client.store().head().isEmpty)
    }

    @Test("a reopened file store keeps rows, outbox order and cursor")
    func reopen() async throws {
        let path = Client.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try ClientStore.open(path: path, tables: [Client.todos, Client.notes])
            try await store.write(Client.insert(1, row: 1, title: "one"))
            try await store.write(Client.insert(2, row: 2), atomicGroup: "g")
            try await store.write(Client.write(3, "update", pk: Client.rowKey(1), columns: ["title": "uno"]))
            try await store.setCursor("7")
            await store.close()
        }
        let reopened = try ClientStore.open(path: path, tables: [Client.todos, Client.notes])
        #expect(await reopened.cursor == "7")
        #expect(await reopened.outboxDepth == 3)
        let outbox = try await reopened.outbox()
        #expect(outbox.map(\.mutation.mutationID) == (1...3).map(Client.mutationID))
        #expect(outbox.map(\.atomicGroup) == [nil, "g", nil])
        #expect(try await reopened.row(table: "todos", pk: Client.rowKey(1))?["title"] == "uno")
        #expect(try await reopened.rows(table: "todos").count == 2)
        #expect(await reopened.events.isEmpty)
    }

    @Test("a failure between the row write and the outbox insert leaves nothing of the write")
    func injectedFailure() async throws {
        let path = Client.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try ClientStore.open(path: path, tables: [Client.todos, Client.notes])
            try await store.write(Client.insert(1, row: 1, title: "kept"))
            await store.setFailureInjection(true)
            let update = try Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "lost"])
            #expect(await store.refusal(update) == "STORE")
            #expect(await store.refusal(try Client.insert(3, row: 3)) == "STORE")
            #expect(await store.outboxDepth == 1)
            #expect(try await store.row(table: "todos", pk: Client.rowKey(1))?["title"] == "kept")
            #expect(try await store.row(table: "todos", pk: Client.rowKey(3)) == nil)
            await store.setFailureInjection(false)
            try await store.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "retried"]))
            await store.close()
        }
        let reopened = try ClientStore.open(path: path, tables: [Client.todos, Client.notes])
        #expect(try await reopened.outbox().map(\.mutation.mutationID) == [Client.mutationID(1), Client.mutationID(2)])
        #expect(try await reopened.row(table: "todos", pk: Client.rowKey(1))?["title"] == "retried")
        #expect(try await reopened.row(table: "todos", pk: Client.rowKey(3)) == nil)
    }
}
