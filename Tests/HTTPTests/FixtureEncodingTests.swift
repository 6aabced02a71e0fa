import Corpus
import JSON
import KizunaWire
import Serve
import ServerContract
import Testing

/// The client side of the fixture contract: bodies read back to the same values, statuses map to `TargetError`.
@Suite("Fixture body encoding")
struct FixtureEncodingTests {
    @Test("a seed with every table option and history round-trips")
    func seedRoundTrip() throws {
        let server = ServerConfig(
            synced: [
                TableConfig(table: "todos", bucketColumn: "owner_id", conflictMode: "hlc", conflictJournal: true, keyColumns: ["id"]),
                TableConfig(table: "seats", bucketColumn: "venue_id", softDeleteColumn: "deleted"),
            ], minSchemaVersion: 2, tombstoneTTLDays: 7, maxPullScan: 3)
        let seed = Seed(
            server: server, nextSeq: SequenceNumber(12),
            history: [
                .upsert(table: "todos", pk: "a", columns: ["n": 1, "tags": ["x"]], actor: "u1", hlc: "h"),
                .delete(table: "todos", pk: "a", actor: "u1"), .reap,
            ])
        #expect(try FixtureRequest.seed(FixtureRequest.body(seed: seed)) == seed)
    }

    @Test("step, change and commit bodies round-trip")
    func othersRoundTrip() throws {
        #expect(try FixtureRequest.step(FixtureRequest.body(step: 4)) == 4)
        #expect(try FixtureRequest.commit(FixtureRequest.body(commit: "t9")) == "t9")
        let change = FixtureChange.upsert(table: "notices", pk: "n1", columns: ["body": "hi"], actor: "a", hlc: nil)
        let decoded = try FixtureRequest.change(FixtureRequest.body(change: change, heldIn: "t1"))
        #expect(decoded.change == change)
        #expect(decoded.transaction == "t1")
        #expect(try FixtureRequest.change(FixtureRequest.body(change: .reap, heldIn: nil)).transaction == nil)
    }

    @Test("answers map back to TargetError")
    func statuses() {
        #expect(FixtureRequest.targetError(status: 204, body: []) == nil)
        #expect(FixtureRequest.targetError(status: 501, body: Array(#"{"message":"holes"}"#.utf8))?.isUnsupported == true)
        #expect(FixtureRequest.targetError(status: 503, body: [])?.description.hasPrefix("target unreachable") == true)
        #expect(
            FixtureRequest.targetError(status: 409, body: Array(#"{"message":"no txn"}"#.utf8))?.description
                == "target refused: HTTP 409: no txn")
    }
}

/// The two answers the fixture contract added: capabilities and the seed's receipt.
@Suite("Fixture answers: capabilities and seed receipts")
struct FixtureAnswerTests {
    static let seed = Seed(
        server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), nextSeq: SequenceNumber(5),
        history: [.upsert(table: "todos", pk: "a", columns: [:], actor: "x", hlc: nil), .reap])

    static func bytes(_ value: JSONValue) -> [UInt8] { Array(CanonicalJSON.compact(value).utf8) }

    @Test("capabilities round-trip; a server without the call (404, 405, 501) declares nothing, so its numbering is gapped")
    func capabilities() throws {
        let wall = TargetCapabilities(clock: .wall, seqs: .atCommit, numbering: .gapped)
        #expect(try FixtureRequest.capabilities(status: 200, body: Self.bytes(FixtureRequest.body(capabilities: wall))) == wall)
        #expect(
            try FixtureRequest.capabilities(status: 200, body: Self.bytes(FixtureRequest.body(capabilities: .reference))) == .reference)
        for status in [404, 405, 501] {
            #expect(try FixtureRequest.capabilities(status: status, body: []) == .undeclared, "HTTP \(status)")
        }
        #expect(TargetCapabilities.undeclared.numbering == .gapped)
        #expect(
            try FixtureRequest.capabilities(status: 200, body: Array(#"{"clock":"logical","seqs":"at-write"}"#.utf8)) == .undeclared,
            "numbering may be left out: only a server that declares dense numbering is checked for it")
        for body in [#"{"clock":"sundial","seqs":"at-write"}"#, #"{"clock":"wall"}"#, #"{"clock":"wall","seqs":"at-commit","x":1}"#, "no"] {
            #expect(throws: TargetError.self) { try FixtureRequest.capabilities(status: 200, body: Array(body.utf8)) }
        }
        #expect(throws: TargetError.self) { try FixtureRequest.capabilities(status: 503, body: []) }
    }

    @Test("a seed answered 204 numbers as asked; 200 carries the server's receipt, checked against the history")
    func receipts() throws {
        let implied = try FixtureRequest.receipt(status: 204, body: [], for: Self.seed)
        #expect(implied.base == SequenceNumber(4) && implied.history == [SequenceNumber(5), nil])
        #expect(implied.implied, "a bare 204 says nothing of the server's numbering")
        let moved = SeedReceipt(base: SequenceNumber(104), history: [SequenceNumber(105), nil])
        #expect(try FixtureRequest.receipt(status: 200, body: Self.bytes(FixtureRequest.body(receipt: moved)), for: Self.seed) == moved)
        for body in [#"{"base":"4","history":["5"]}"#, #"{"base":"04","history":["5",null]}"#, #"{"base":"4","history":[5,null]}"#] {
            #expect(throws: TargetError.self) { try FixtureRequest.receipt(status: 200, body: Array(body.utf8), for: Self.seed) }
        }
        #expect(throws: TargetError.self) { try FixtureRequest.receipt(status: 409, body: [], for: Self.seed) }
    }

    @Test("the endpoint answers GET /accord/fixtures/capabilities with the target's, and refuses other methods")
    func endpoint() async throws {
        let router = PostgRESTRouter(target: StubTarget(), key: RouterTests.key, fixtures: true)
        let answer = await router.handle(RouterTests.request("/accord/fixtures/capabilities", method: "GET", token: nil))
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"clock":"logical","numbering":"dense","seqs":"at-write"}"#)
        let post = await router.handle(RouterTests.request("/accord/fixtures/capabilities", token: nil))
        #expect(post.status == 405)
        let off = PostgRESTRouter(target: StubTarget(), key: RouterTests.key, fixtures: false)
        #expect(await off.handle(RouterTests.request("/accord/fixtures/capabilities", method: "GET", token: nil)).status == 404)
    }
}
