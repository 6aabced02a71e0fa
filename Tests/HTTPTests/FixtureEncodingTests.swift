import Corpus
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
