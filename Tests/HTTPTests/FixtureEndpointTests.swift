import Corpus
import HTTP
import KizunaWire
import Serve
import ServerContract
import Testing

/// The fixture endpoint: off unless enabled, loopback only, strict bodies, 204 on success.
@Suite("Fixture endpoint")
struct FixtureEndpointTests {
    static let server =
        #"{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id","conflict_mode":"hlc"}},"tombstone_ttl_days":30}"#

    @Test("the endpoint is 404 unless enabled, and 404 on a non-loopback listener")
    func gated() async {
        let stub = StubTarget()
        let off = PostgRESTRouter(target: stub, key: RouterTests.key)
        #expect(await off.handle(RouterTests.request("/accord/fixtures/step", body: #"{"n":1}"#)).status == 404)
        let on = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        #expect(await on.handle(RouterTests.request("/accord/fixtures/step", body: #"{"n":1}"#, listener: "0.0.0.0")).status == 404)
        #expect(await on.handle(RouterTests.request("/accord/fixtures/step", body: #"{"n":1}"#, listener: "192.168.1.2")).status == 404)
        #expect(await stub.calls.isEmpty)
        #expect(await on.handle(RouterTests.request("/accord/fixtures/step", body: #"{"n":1}"#, listener: "127.0.0.2")).status == 204)
        #expect(await stub.calls == [.step(1)])
    }

    @Test("seed answers its receipt; step, change and commit reach the target and answer 204")
    func operations() async throws {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        let seed = """
            {"server":\(Self.server),"next_seq":"5","history":[
              {"op":"upsert","table":"todos","pk":"r1","columns":{"owner_id":"u","tags":["a"]}},
              {"op":"delete","table":"todos","pk":"r1","actor":"someone"},{"op":"reap"}]}
            """
        let bodies = [
            ("seed", seed), ("step", #"{"n":3}"#),
            (
                "change",
                #"{"op":"upsert","table":"todos","pk":"r2","columns":{"done":true},"actor":"a2","hlc":"2026-01-01T00:00:00.000Z|0|n","txn":"t1"}"#
            ),
            ("change", #"{"op":"delete","table":"todos","pk":"r2","actor":"a2"}"#), ("change", #"{"op":"reap","txn":null}"#),
            ("commit", #"{"txn":"t1"}"#),
        ]
        for (operation, body) in bodies {
            let response = await router.handle(RouterTests.request("/accord/fixtures/\(operation)", body: body, token: nil))
            if operation == "seed" {
                #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
                #expect(String(decoding: response.body, as: UTF8.self) == #"{"base":"4","history":["5","6",null]}"#)
            } else {
                #expect(response.status == 204, "\(operation): \(String(decoding: response.body, as: UTF8.self))")
                #expect(response.body.isEmpty)
            }
        }
        let calls = await stub.calls
        try #require(calls.count == 6)
        guard case .seed(let seeded) = calls[0] else {
            Issue.record("first call is not a seed")
            return
        }
        #expect(seeded.nextSeq == SequenceNumber(5))
        #expect(seeded.server.minSchemaVersion == 1)
        #expect(seeded.server.tables.map(\.name) == ["todos"])
        #expect(seeded.server.tables.first?.conflictMode == "hlc")
        #expect(
            seeded.history == [
                .upsert(
                    table: "todos", pk: "r1", columns: ["owner_id": "u", "tags": ["a"]], actor: FixtureRequest.defaultHistoryActor, hlc: nil
                ),
                .delete(table: "todos", pk: "r1", actor: "someone"), .reap,
            ])
        #expect(calls[1] == .step(3))
        #expect(
            calls[2]
                == .apply(
                    .upsert(table: "todos", pk: "r2", columns: ["done": true], actor: "a2", hlc: "2026-01-01T00:00:00.000Z|0|n"), "t1"))
        #expect(calls[3] == .apply(.delete(table: "todos", pk: "r2", actor: "a2"), nil))
        #expect(calls[4] == .apply(.reap, nil))
        #expect(calls[5] == .commit("t1"))
    }

    @Test(
        "bad fixture bodies are 400 PGRST102 naming the pointer",
        arguments: [
            ("seed", #"{}"#), ("seed", #"{"server":{}}"#), ("seed", #"{"server":\#(server),"next_seq":"0"}"#),
            ("seed", #"{"server":\#(server),"next_seq":5}"#), ("seed", #"{"server":\#(server),"extra":1}"#),
            ("seed", #"{"server":\#(server),"history":[{"op":"upsert","table":"todos","pk":"r"}]}"#),
            ("seed", #"{"server":\#(server),"history":[{"op":"reap","txn":"t"}]}"#), ("step", #"{"n":-1}"#), ("step", #"{"n":"1"}"#),
            ("change", #"{"op":"upsert","table":"todos","pk":"r","columns":{}}"#), ("change", #"{"op":"drop"}"#),
            ("change", #"{"op":"delete","table":"todos","pk":"r","actor":"a","columns":{}}"#),
            ("change", #"{"op":"upsert","table":"Todos","pk":"r","columns":{},"actor":"a"}"#),
            ("change", #"{"op":"upsert","table":"todos","pk":"","columns":{},"actor":"a"}"#),
            ("change", #"{"op":"upsert","table":"todos","pk":"r","columns":{"x":{"y":1}},"actor":"a"}"#), ("commit", #"{}"#),
            ("commit", #"{"txn":""}"#), ("commit", "[1]"),
        ])
    func badBodies(_ operation: String, _ body: String) async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        let response = await router.handle(RouterTests.request("/accord/fixtures/\(operation)", body: body))
        #expect(response.status == 400)
        #expect(RouterTests.code(response) == "PGRST102")
        #expect(await stub.calls.isEmpty)
    }

    @Test("a bad server config names its pointer under /server")
    func serverPointer() async {
        let router = PostgRESTRouter(target: StubTarget(), key: RouterTests.key, fixtures: true)
        let body =
            #"{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id","conflict_mode":"x"}},"tombstone_ttl_days":30}}"#
        let response = await router.handle(RouterTests.request("/accord/fixtures/seed", body: body))
        #expect(RouterTests.json(response)?["details"]?.stringValue?.contains("/server/tables/todos/conflict_mode") == true)
    }

    @Test("unknown fixture operations are 404 and GET is 405")
    func unknown() async {
        let router = PostgRESTRouter(target: StubTarget(), key: RouterTests.key, fixtures: true)
        #expect(await router.handle(RouterTests.request("/accord/fixtures/reset")).status == 404)
        #expect(await router.handle(RouterTests.request("/accord/fixtures/seed", method: "GET")).status == 405)
    }
}
