import Corpus
import JSON
import KizunaWire
import Lanes
import ServerContract
import Testing

/// The golden-to-live map the server lane follows a conversation with.
@Suite("Bindings")
struct BindingsTests {
    static func page(cursor: String, rows: [(String, String)] = [], tombstones: [(String, String, String)] = [], signal: JSONValue = nil)
        -> JSONValue
    {
        [
            "cursor": .string(cursor), "has_more": false,
            "rows": .array(rows.map { ["pk": .string($0.0), "row": ["title": "t"], "seq": .string($0.1), "table": "todos"] }),
            "signal": signal,
            "tombstones": .array(
                tombstones.map { ["deleted_at": .string($0.2), "pk": .string($0.0), "seq": .string($0.1), "table": "todos"] }),
        ]
    }

    @Test("cursor parts bind one by one: start, high-water and holes; a request carries the live parts")
    func cursorParts() {
        var bindings = Bindings()
        let learning = bindings.learn(
            golden: Self.page(cursor: "4:6~5", rows: [("a", "6")]), live: Self.page(cursor: "104:106~105", rows: [("a", "106")]),
            at: "step 3 pull")
        #expect(learning.violations.isEmpty)
        #expect(Set(learning.learned.map(\.description)) == ["seq 6→106", "seq 4→104", "seq 5→105"])
        #expect(bindings.translate(["cursor": "4:6~5"]).0["cursor"] == "104:106~105")
        #expect(bindings.translate(["cursor": "6~5"]).0["cursor"] == "106~105", "an unanswered token is translated part by part")
        #expect(bindings.translate(["seq": "5"]).0["seq"] == "105")
    }

    @Test("a cursor of another shape cannot be bound: a dropped hole, a dropped continuation start")
    func cursorShape() {
        for (golden, live) in [("6~5", "6"), ("4:8", "8"), ("6", "6~5")] {
            var bindings = Bindings()
            let learning = bindings.learn(golden: Self.page(cursor: golden), live: Self.page(cursor: live), at: "step 3 pull")
            #expect(
                learning.violations.first?.message.hasSuffix("at step 3 pull at /cursor: a token of another shape") == true, "\(learning)")
            #expect(
                bindings.translate(["cursor": .string(golden)]).0["cursor"] == .string(live),
                "the request still carries what the server answered")
        }
    }

    @Test("a signal page echoes the request's cursor and teaches nothing")
    func signalTeachesNothing() {
        var bindings = Bindings()
        let learning = bindings.learn(
            golden: Self.page(cursor: "4"), live: Self.page(cursor: "3", signal: ["type": "CHECKPOINT_EXPIRED"]), at: "step 6 pull")
        #expect(learning.learned.isEmpty && learning.violations.isEmpty)
        #expect(bindings.translate(["cursor": "4"]).0["cursor"] == "4")
    }

    @Test("a request sends back the token the server answered, even when its parts could not be bound")
    func answeredTokenGoesBack() {
        var bindings = Bindings()
        _ = bindings.learn(
            golden: Self.page(cursor: "2", rows: [("a", "2")]), live: Self.page(cursor: "2", rows: [("a", "2")]), at: "step 1 pull")
        let learning = bindings.learn(golden: Self.page(cursor: "4"), live: Self.page(cursor: "2"), at: "step 3 pull")
        #expect(
            learning.violations.map(\.message) == [
                #"live seq "2" answers golden "2" at step 1 pull at /rows/0/seq and golden "4" at step 3 pull at /cursor: two golden values, one live one"#
            ])
        let (sent, substitutions) = bindings.translate(["cursor": "4"])
        #expect(sent["cursor"] == "2")
        #expect(substitutions.first?.origin?.description == "step 3 pull at /cursor")
    }

    @Test("the seed binds its base and history to the server's receipt, so a checkpoint inside the history goes out live")
    func seedReceipt() throws {
        var bindings = Bindings()
        let seed = Seed(
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), nextSeq: SequenceNumber(5),
            history: [.upsert(table: "todos", pk: "a", columns: [:], actor: "x", hlc: nil), .reap])
        let learning = bindings.bind(seed: seed, receipt: SeedReceipt(base: SequenceNumber(104), history: [SequenceNumber(105), nil]))
        #expect(learning.violations.isEmpty)
        #expect(bindings.translate(["cursor": "4"]).0["cursor"] == "104")
        #expect(bindings.translate(["cursor": "5"]).0["cursor"] == "105")
        #expect(bindings.translate(["cursor": "0"]).0["cursor"] == "0", "the bootstrap cursor is the same on every server")
    }

    @Test("a bare 204 on a server that does not declare dense numbering binds nothing until an answer shows its positions")
    func impliedReceipt() throws {
        let seed = Seed(
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), nextSeq: SequenceNumber(5),
            history: [.upsert(table: "todos", pk: "a", columns: [:], actor: "x", hlc: nil)])
        var bindings = Bindings()
        #expect(bindings.bind(seed: seed, receipt: .asSeeded(seed)).violations.isEmpty)
        #expect(bindings.translate(["cursor": "4"]).0["cursor"] == "4", "a position no answer bound goes out as the seed's")
        // The server's sequence ran 100 ahead: the history row was stamped 105, not 5.
        let learning = bindings.learn(
            golden: Self.page(cursor: "5", rows: [("a", "5")]), live: Self.page(cursor: "105", rows: [("a", "105")]), at: "step 1 pull")
        #expect(learning.violations.isEmpty, "\(learning.violations)")
        #expect(bindings.translate(["cursor": "5"]).0["cursor"] == "105")
        // On a server that declares dense numbering the same 204 is a promise, and breaking it is a finding.
        var dense = Bindings()
        _ = dense.bind(seed: seed, receipt: .asSeeded(seed), dense: true)
        let broken = dense.learn(
            golden: Self.page(cursor: "5", rows: [("a", "5")]), live: Self.page(cursor: "105", rows: [("a", "105")]), at: "step 1 pull")
        #expect(!broken.violations.isEmpty)
    }

    @Test("on a densely numbered server a row's seq must lie as far above the base as the golden one")
    func density() throws {
        let seed = Seed(server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]))
        var dense = Bindings()
        _ = dense.bind(seed: seed, receipt: SeedReceipt(base: SequenceNumber(100), history: []), dense: true)
        let shifted = dense.learn(
            golden: Self.page(cursor: "1", rows: [("a", "1")]), live: Self.page(cursor: "101", rows: [("a", "101")]), at: "s")
        #expect(shifted.violations.isEmpty)
        let spent = dense.learn(
            golden: Self.page(cursor: "2", rows: [("b", "2")]), live: Self.page(cursor: "103", rows: [("b", "103")]), at: "t")
        #expect(
            spent.violations.first?.message.contains("runs ahead of the golden one (a write applied again") == true, "\(spent.violations)")
        var gapped = Bindings()
        _ = gapped.bind(seed: seed, receipt: SeedReceipt(base: SequenceNumber(100), history: []), dense: false)
        _ = gapped.learn(golden: Self.page(cursor: "1", rows: [("a", "1")]), live: Self.page(cursor: "101", rows: [("a", "101")]), at: "s")
        #expect(
            gapped.learn(golden: Self.page(cursor: "2", rows: [("b", "2")]), live: Self.page(cursor: "103", rows: [("b", "103")]), at: "t")
                .violations.isEmpty)
    }

    @Test("live times must be RFC 3339 UTC, not before the seed on a wall clock, and keep the golden order")
    func times() throws {
        var bindings = Bindings()
        bindings.notBefore = UTCTimestamp("2026-12-01T20:00:00.000Z")
        let offset = bindings.learn(
            golden: Self.page(cursor: "1", tombstones: [("a", "1", "2026-01-01T00:00:03.000Z")]),
            live: Self.page(cursor: "1", tombstones: [("a", "1", "2026-12-01T21:00:00+01:00")]), at: "step 4 pull")
        #expect(offset.violations.first?.message.contains("is not an RFC 3339 time in UTC") == true)
        let early = bindings.learn(
            golden: Self.page(cursor: "2", tombstones: [("b", "2", "2026-01-01T00:00:04.000Z")]),
            live: Self.page(cursor: "2", tombstones: [("b", "2", "2026-11-30T00:00:00Z")]), at: "step 5 pull")
        #expect(early.violations.first?.message.contains("is earlier than the seed") == true)
        _ = bindings.learn(
            golden: Self.page(cursor: "3", tombstones: [("c", "3", "2026-01-01T00:00:07.000Z")]),
            live: Self.page(cursor: "3", tombstones: [("c", "3", "2026-12-01T20:00:09Z")]), at: "step 7 pull")
        let backwards = bindings.learn(
            golden: Self.page(cursor: "4", tombstones: [("d", "4", "2026-01-01T00:00:09.000Z")]),
            live: Self.page(cursor: "4", tombstones: [("d", "4", "2026-12-01T20:00:08Z")]), at: "step 9 pull")
        #expect(backwards.violations.first?.message.hasPrefix("order inverted: golden deleted_at") == true, "\(backwards.violations)")
        #expect(backwards.violations.first?.message.contains("step 7 pull at /tombstones/0/deleted_at") == true)
    }
}
