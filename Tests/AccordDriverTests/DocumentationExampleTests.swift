import AccordDriver
import Corpus
import JSON
import KizunaWire
import Testing

// The example of docs/driver-protocol.md §9, kept here so that it always compiles.

/// An engine that keeps rows in memory and "pushes" by forgetting its outbox.
actor MemoryEngine: KizunaSync.EngineDriver {
    var rows: [String: [String: JSONObject]] = [:]
    var outbox: [Mutation] = []

    func hello() async -> HelloResult { HelloResult(name: "memory-engine", version: "1.0.0", capabilities: []) }
    func open(_ request: OpenRequest) async throws { rows = [:] }
    func write(_ request: WriteRequest) async throws -> WriteResult {
        let m = request.mutation
        if m.op == .delete { rows[m.table]?[m.pk] = nil } else { rows[m.table, default: [:]][m.pk, default: [:]].merge(m.columns) }
        outbox.append(m)
        return WriteResult(outboxDepth: outbox.count)
    }
    func push() async throws -> PushResult {
        defer { outbox.removeAll() }
        return outbox.isEmpty ? PushResult(outcome: .nothing) : PushResult(outcome: .sent, mutations: outbox.count)
    }
    func pull(_ request: PullOptions) async throws -> PullResult { PullResult(outcome: .closed, cursor: "0", pages: 1) }
    func state(_ request: StateOptions) async throws -> StateResult {
        StateResult(rows: rows, cursor: "0", outboxDepth: outbox.count)
    }
    func close() async throws {}
}

extension JSONObject {
    fileprivate mutating func merge(_ other: JSONObject) { for member in other.members { self[member.key] = member.value } }
}

/// What the example's `main.swift` does.
func exampleMain() async {
    _ = await DriverLoop.run(engine: MemoryEngine(), input: FileDescriptorInput(), output: FileDescriptorOutput())
}

@Test("the documentation example drives a session")
func documentationExample() async {
    let plainOpen = OpenRequest(
        store: "s", baseURL: "http://127.0.0.1:1", apikey: "a", jwt: "j", clientID: Fixture.client, userID: Fixture.user, schemaVersion: 1,
        server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]))
    let requests = DriverPipe()
    let responses = DriverPipe()
    for request in [
        DriverRequest.hello(id: 1), .open(id: 2, plainOpen), .write(id: 3, WriteRequest(mutation: Fixture.insert)), .close(id: 4),
    ] {
        requests.send(request.line)
    }
    requests.finish()
    #expect(await DriverLoop.run(engine: MemoryEngine(), input: requests.reader(), output: responses) == .closed)
    responses.finish()
    var lines = DriverLineReader(responses.reader())
    var answers: [String] = []
    while case .line(let bytes) = await lines.next() { answers.append(String(decoding: bytes, as: UTF8.self)) }
    #expect(answers.count == 4)
    #expect(answers.dropFirst(2).first == #"{"id":3,"result":{"outbox_depth":1}}"#)
}
