import AccordDriver
import AccordTestSupport
import Corpus
import Foundation
import JSON
import KizunaWire
import ReferenceDriver
import Testing

@testable import ReferenceClient

@Suite("KizunaSync.ReferenceClientDriver through DriverLoop")
struct DriverSessionTests {
    static let server = ServerConfig(synced: [Client.todos], minSchemaVersion: 1, tombstoneTTLDays: 30)

    /// Runs whole sessions of request lines against one driver and returns the response lines.
    static func session(_ requests: [DriverRequest], driver: KizunaSync.ReferenceClientDriver) async -> [JSONValue] {
        let input = DriverPipe()
        let output = DriverPipe()
        for request in requests { input.send(request.line) }
        input.finish()
        _ = await DriverLoop.run(engine: driver, input: input.reader(), output: output)
        output.finish()
        var reader = DriverLineReader(output.reader())
        var lines: [JSONValue] = []
        while let line = await reader.next() {
            if case .line(let bytes) = line { lines.append((try? JSONParser.parse(bytes)) ?? .null) }
        }
        return lines
    }

    @Test("hello, open, write, push, pull, state and close answer as the driver protocol says")
    func wholeSession() async throws {
        let remote = InMemoryRemote()
        await remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        await remote.enqueue(json: Wire.page(cursor: "5", rows: [(1, Wire.row(1, title: "first"), 5)]))
        let driver = KizunaSync.ReferenceClientDriver(remote: { _ in remote })
        let store = Client.scratchFolder + "/accord-driver-\(UUID().uuidString)/case/store"
        let open = OpenRequest(
            store: store, baseURL: "http://127.0.0.1:9", apikey: "anon", jwt: "eyJ.x.y", clientID: Rig.client, userID: Rig.user,
            schemaVersion: 1, server: Self.server, checkpoint: "4")
        let insert = Mutation(
            mutationID: Client.mutationID(1), table: "todos", pk: Client.rowKey(1), op: .insert,
            columns: ["done": false, "owner_id": .string(Rig.user), "title": "first"])
        let delete = Mutation(mutationID: Client.mutationID(2), table: "nope", pk: "x", op: .delete, columns: [:])
        let lines = await Self.session(
            [
                .hello(id: 1), .open(id: 2, open), .write(id: 3, WriteRequest(mutation: insert)), .push(id: 4), .pull(id: 5),
                .write(id: 6, WriteRequest(mutation: delete)), .state(id: 7, tables: ["todos"]), .state(id: 8, tables: ["nope"]),
                .close(id: 9),
            ], driver: driver)
        #expect(lines.count == 9)
        #expect(lines[0]["result"]?["name"] == "accord-reference-client")
        #expect(lines[0]["result"]?["version"] == .string(KizunaSync.ReferenceClientDriver.version))
        let capabilities = Set(lines[0]["result"]?["capabilities"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(capabilities == ["transforms", "atomic", "soft-delete", "kill-safe"])
        #expect(lines[1]["result"] == [:])
        #expect(lines[2]["result"]?["outbox_depth"] == 1)
        #expect(lines[3]["result"] == ["mutations": 1, "outcome": "sent"])
        #expect(lines[4]["result"] == ["cursor": "5", "outcome": "closed", "pages": 1])
        #expect(lines[5]["error"]?["code"] == "UNKNOWN_TABLE")
        let state = try #require(lines[6]["result"])
        #expect(state["cursor"] == "5")
        #expect(state["outbox_depth"] == 0)
        #expect(state["rows"]?["todos"]?[Client.rowKey(1)]?["title"] == "first")
        #expect(state["events"]?.arrayValue?.first?["code"] == "LOCAL_CHANGED")
        #expect(lines[7]["error"]?["code"] == "UNKNOWN_TABLE")
        #expect(lines[8]["result"] == [:])
        let bodies = await remote.sentBodies()
        #expect(bodies.count == 2 && bodies[1].contains(#""cursor":"4""#))
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test("a wire violation answers its protocol code and a reopened store keeps its own cursor")
    func wireCodeAndReopen() async throws {
        let remote = InMemoryRemote()
        await remote.enqueue(json: Wire.verdicts(Wire.applied(7)))
        let store = Client.scratchFolder + "/accord-driver-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        var open = OpenRequest(
            store: store, baseURL: "http://127.0.0.1:9", apikey: "anon", jwt: "eyJ.x.y", clientID: Rig.client, userID: Rig.user,
            schemaVersion: 1, server: Self.server, checkpoint: "4")
        let insert = Mutation(
            mutationID: Client.mutationID(1), table: "todos", pk: Client.rowKey(1), op: .insert,
            columns: ["owner_id": .string(Rig.user), "title": "first"])
        let first = await Self.session(
            [.hello(id: 1), .open(id: 2, open), .write(id: 3, WriteRequest(mutation: insert)), .push(id: 4)],
            driver: KizunaSync.ReferenceClientDriver(remote: { _ in remote }))
        #expect(first[3]["error"]?["code"] == "VERDICT_BIJECTION")
        open.checkpoint = "9"
        let second = await Self.session(
            [.hello(id: 1), .open(id: 2, open), .state(id: 3)], driver: KizunaSync.ReferenceClientDriver(remote: { _ in remote }))
        #expect(second[2]["result"]?["cursor"] == "4")
        #expect(second[2]["result"]?["outbox_depth"] == 1)
        #expect(FileManager.default.fileExists(atPath: store + "/client.sqlite"))
    }
}
