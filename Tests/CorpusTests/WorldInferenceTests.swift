import Corpus
import Foundation
import JSON
import Testing

/// What `WorldInference` reads off a recording: the changes outside it, where they go, and what it
/// cannot show. Each test builds a small recording of a service the way `accord record` writes one.
@Suite("World inference: the world a recording implies")
struct WorldInferenceTests {
    static let userA = "00000000-0000-4000-8000-a10000000001"
    static let userB = "00000000-0000-4000-8000-a10000000002"
    static let phone = "00000000-0000-4000-8000-c10000000001"

    static func key(_ n: Int) -> String { "00000000-0000-4000-8000-e1000000000\(n)" }

    static func row(_ n: Int, _ title: String, owner: String = userA, done: Bool = false) -> JSONValue {
        ["done": .bool(done), "id": .string(key(n)), "owner_id": .string(owner), "title": .string(title)]
    }

    /// A pull exchange of `client` as `user` for the user's todos bucket.
    static func pull(
        _ number: Int, cursor: String, answer: String, hasMore: Bool = false, rows: [(Int, String, JSONValue)] = [],
        tombstones: [(Int, String)] = [], user: String = userA, client: String = phone, signal: JSONValue = nil, version: Int = 1
    ) -> RecordedExchange {
        let request: JSONValue = [
            "buckets": [["params": ["owner_id": .string(user)], "table": "todos"]], "client_id": .string(client),
            "cursor": .string(cursor), "limit": 2, "schema_version": .number(JSONNumber(version)),
        ]
        let response: JSONValue = [
            "cursor": .string(answer), "has_more": .bool(hasMore),
            "rows": .array(rows.map { ["pk": .string(key($0.0)), "row": $0.2, "seq": .string($0.1), "table": "todos"] }),
            "signal": signal,
            "tombstones": .array(
                tombstones.map {
                    ["deleted_at": "2026-01-01T00:00:00.000Z", "pk": .string(key($0.0)), "seq": .string($0.1), "table": "todos"]
                }
            ),
        ]
        var exchange = RecordedExchange(number: number, rpc: "pull", request: request, response: response)
        exchange.user = user
        exchange.client = client
        return exchange
    }

    /// A push exchange of `mutations` answered with `verdicts`.
    static func push(_ number: Int, _ mutations: [JSONValue], verdicts: [JSONValue], user: String = userA, client: String = phone)
        -> RecordedExchange
    {
        let request: JSONValue = [
            "batch": ["atomic": false, "mutations": .array(mutations)], "client_id": .string(client), "last_mutation_id": nil,
            "schema_version": 1,
        ]
        var exchange = RecordedExchange(number: number, rpc: "push", request: request, response: ["verdicts": .array(verdicts)])
        exchange.user = user
        exchange.client = client
        return exchange
    }

    static func update(_ id: Int, _ n: Int, _ columns: JSONValue, precondition: JSONValue? = nil) -> JSONValue {
        var mutation: JSONObject = [
            "columns": columns, "mutation_id": .string("00000000-0000-4000-8000-f1000000000\(id)"), "op": "update",
            "pk": .string(key(n)), "table": "todos",
        ]
        if let precondition { mutation["precondition"] = precondition }
        return .object(mutation)
    }

    static func applied(_ id: Int) -> JSONValue {
        ["mutation_id": .string("00000000-0000-4000-8000-f1000000000\(id)"), "verdict": "applied"]
    }

    static func world(_ exchanges: [RecordedExchange]) -> RecordedWorld {
        var inference = WorldInference()
        for exchange in exchanges { inference.observe(exchange) }
        return inference.world()
    }

    static func upserts(_ changes: [WorldChange]) -> [String] {
        changes.compactMap { change in
            if case .upsert(let columns) = change.operation { return "\(change.pk.suffix(1)):\(columns["title"]?.stringValue ?? "")" }
            return nil
        }
    }

    @Test("rows the first pull already shows are the service's history, in seq order")
    func historyBeforeTheFirstPull() {
        let world = Self.world([Self.pull(1, cursor: "0", answer: "7", rows: [(1, "3", Self.row(1, "a")), (2, "7", Self.row(2, "b"))])])
        #expect(Self.upserts(world.history) == ["1:a", "2:b"])
        #expect(world.changes.isEmpty)
        #expect(world.notInferable.isEmpty)
    }

    @Test("a row a later pull shows that no recorded push made is another actor's upsert, just before that pull")
    func outsideWriteBetweenPulls() {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "3", rows: [(1, "3", Self.row(1, "a"))]),
            Self.push(2, [Self.update(1, 1, ["done": true])], verdicts: [Self.applied(1)]),
            Self.pull(3, cursor: "3", answer: "9", rows: [(1, "4", Self.row(1, "a", done: true)), (2, "9", Self.row(2, "web"))]),
        ])
        #expect(Self.upserts(world.history) == ["1:a"])
        #expect(Self.upserts(world.changes[3] ?? []) == ["2:web"], "\(world.changes)")
        #expect(world.changes[2] == nil, "the push's own write is no outside change")
    }

    @Test("a tombstone of a row never shown is a delete of a row made for the purpose, in the puller's bucket")
    func tombstoneOfAnUnseenRow() throws {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "1", rows: [(1, "1", Self.row(1, "a"))]),
            Self.pull(2, cursor: "1", answer: "3", tombstones: [(5, "3")]),
        ])
        let changes = try #require(world.changes[2])
        #expect(changes.count == 2, "\(changes)")
        guard case .upsert(let columns) = changes[0].operation, case .delete = changes[1].operation else {
            Issue.record("expected an upsert then a delete: \(changes)")
            return
        }
        #expect(columns["owner_id"] == .string(Self.userA))
        #expect(columns["id"] == .string(Self.key(5)))
    }

    @Test("a high-water no answer shows is a filler write, in a bucket no recorded client pulls, last before the pull")
    func fillerForAnUnseenHighWater() throws {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "1", rows: [(1, "1", Self.row(1, "a"))]),
            Self.pull(2, cursor: "1", answer: "8"),
        ])
        let filler = try #require(world.changes[2]?.last)
        guard case .upsert(let columns) = filler.operation else {
            Issue.record("\(filler)")
            return
        }
        #expect(columns["owner_id"] != .string(Self.userA))
        #expect(filler.reason.contains("seq 8"), "\(filler.reason)")
    }

    @Test("a PRECONDITION verdict's server_row the model does not explain was there before the push, after the row's last push")
    func serverRowOfARejection() throws {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "1", rows: [(1, "1", Self.row(1, "a"))]),
            Self.push(2, [Self.update(1, 1, ["title": "mine"])], verdicts: [Self.applied(1)]),
            Self.push(
                3, [Self.update(2, 1, ["done": true], precondition: ["title": "mine"])],
                verdicts: [
                    [
                        "mutation_id": "00000000-0000-4000-8000-f10000000002", "reason": "PRECONDITION",
                        "server_row": Self.row(1, "edited on the web"), "verdict": "rejected",
                    ]
                ]),
        ])
        #expect(Self.upserts(world.changes[3] ?? []) == ["1:edited on the web"], "\(world.changes)")
    }

    @Test("a page that leaves out a row at a seq it covers proves the row was written again before that page")
    func leftOutRowMovesItsWriteEarlier() {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "2", rows: [(1, "1", Self.row(1, "a")), (2, "2", Self.row(2, "b"))]),
            // Another device's bootstrap page covers seq 1 and 2 but shows only row 2: row 1 was rewritten.
            Self.pull(2, cursor: "0", answer: "0:2", hasMore: true, rows: [(2, "2", Self.row(2, "b"))], client: "c2"),
            Self.pull(3, cursor: "0:2", answer: "5", rows: [(3, "4", Self.row(3, "c")), (1, "5", Self.row(1, "web"))], client: "c2"),
        ])
        #expect(Self.upserts(world.changes[2] ?? []) == ["3:c", "1:web"], "\(world.changes)")
        #expect(world.changes[3] == nil)
    }

    @Test("an insert into the caller's own bucket refused RLS_DENIED: another user's row held the key, in a bucket no one pulls")
    func insertRefusedByAHiddenRow() throws {
        let insert: JSONValue = [
            "columns": Self.row(7, "mine"), "mutation_id": "00000000-0000-4000-8000-f10000000001", "op": "insert",
            "pk": .string(Self.key(7)),
            "table": "todos",
        ]
        let refused: JSONValue = [
            "mutation_id": "00000000-0000-4000-8000-f10000000001", "reason": "RLS_DENIED", "server_row": nil, "verdict": "rejected",
        ]
        let world = Self.world([Self.pull(1, cursor: "0", answer: "0"), Self.push(2, [insert], verdicts: [refused])])
        let change = try #require(world.changes[2]?.first)
        guard case .upsert(let columns) = change.operation else {
            Issue.record("\(change)")
            return
        }
        #expect(change.pk == Self.key(7))
        #expect(columns["owner_id"] != nil && columns["owner_id"] != .string(Self.userA), "\(columns)")
        // Refused because the insert itself names another user's bucket: nothing outside explains it.
        let foreign: JSONValue = [
            "columns": Self.row(8, "theirs", owner: Self.userB), "mutation_id": "00000000-0000-4000-8000-f10000000002", "op": "insert",
            "pk": .string(Self.key(8)), "table": "todos",
        ]
        let own: JSONValue = [
            "mutation_id": "00000000-0000-4000-8000-f10000000002", "reason": "RLS_DENIED", "server_row": nil, "verdict": "rejected",
        ]
        #expect(Self.world([Self.push(1, [foreign], verdicts: [own])]).count == 0)
    }

    @Test("CHECKPOINT_EXPIRED is a reap, after a tombstone it can reap")
    func expiryIsAReap() throws {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "1", rows: [(1, "1", Self.row(1, "a"))]),
            Self.pull(2, cursor: "1", answer: "1", signal: ["type": "CHECKPOINT_EXPIRED"]),
        ])
        let changes = try #require(world.changes[2])
        guard case .reap? = changes.last?.operation else {
            Issue.record("\(changes)")
            return
        }
        #expect(changes.contains { if case .delete = $0.operation { true } else { false } }, "\(changes)")
    }

    @Test("a minimum schema version raised mid-recording leaves the earlier answers not inferable")
    func schemaRaisedLater() {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "0"),
            Self.pull(2, cursor: "0", answer: "0", signal: ["type": "RESET_REQUIRED"]),
        ])
        #expect(world.server.minSchemaVersion == 2)
        #expect(world.notInferable[1]?.contains("raised its minimum to 2") == true, "\(world.notInferable)")
    }

    @Test("a recorded cursor with holes cannot be replayed: that answer and the next pull of its client are not inferable")
    func holesAreNotInferable() {
        let world = Self.world([
            Self.pull(1, cursor: "0", answer: "3~2", rows: [(1, "3", Self.row(1, "a"))]),
            Self.pull(2, cursor: "3~2", answer: "4", rows: [(2, "2", Self.row(2, "late"))]),
        ])
        #expect(world.notInferable[1]?.contains("holes") == true)
        #expect(world.notInferable[2] != nil)
    }

    @Test("answers the proxy gave itself and recorded 401s teach nothing and are named unreplayable")
    func proxyAnswersAreIgnored() {
        var proxied = Self.pull(1, cursor: "0", answer: "9", rows: [(1, "9", Self.row(1, "a"))])
        proxied.responseHeaders[":accord-error"] = "upstream unreachable"
        var refused = Self.pull(2, cursor: "0", answer: "9")
        refused.status = 401
        refused.response = ["code": "PGRST301", "details": nil, "hint": nil, "message": "JWT expired"]
        #expect(proxied.unreplayableReason?.contains("the recording proxy answered") == true)
        #expect(refused.unreplayableReason?.contains("PGRST301") == true)
        #expect(Self.world([proxied, refused]).count == 0)
    }

    @Test("pushes and pulls of one device on an empty service imply no outside change")
    func ownWritesImplyNothing() {
        let insert: JSONValue = [
            "columns": Self.row(1, "a"), "mutation_id": "00000000-0000-4000-8000-f10000000001", "op": "insert", "pk": .string(Self.key(1)),
            "table": "todos",
        ]
        let world = Self.world([
            Self.push(1, [insert], verdicts: [Self.applied(1)]),
            Self.pull(2, cursor: "0", answer: "1", rows: [(1, "1", Self.row(1, "a"))]),
        ])
        #expect(world.count == 0, "\(world.history) \(world.changes)")
    }
}
