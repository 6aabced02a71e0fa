import Corpus
import Foundation
import JSON
import KizunaWire
import Lanes
import ReferenceServer
import Reports
import ServerContract
import Testing

/// The reference server seeded to stamp seqs from 100 instead of the seed's first seq: a
/// correct server whose server-made values differ from the recording's.
actor ShiftedSeqServer: KizunaSync.ServerTarget {
    private let inner: ReferenceServer

    init() throws { inner = try ReferenceServer() }

    func capabilities() async throws(TargetError) -> TargetCapabilities { try await inner.capabilities() }
    func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        var shifted = seed
        shifted.nextSeq = SequenceNumber(100)
        return try await inner.seed(shifted)
    }
    func setStep(_ step: Int) async throws(TargetError) { try await inner.setStep(step) }
    func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        try await inner.apply(change, heldIn: transaction)
    }
    func commit(transaction: String) async throws(TargetError) { try await inner.commit(transaction: transaction) }
    func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { try await inner.pull(body, as: identity) }
    func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { try await inner.push(body, as: identity) }
}

/// Server-lane replay of recordings: bindings, tiers, rules, skips.
@Suite("Replay: recordings in the server lane")
struct ReplayTests {
    static func recording(_ caseID: String) throws -> RecordingContents {
        TranscriptToRecording.convert(try RunnerFixtures.transcript(caseID).transcript, tool: "accord-test").recording
    }

    @Test("bindings pair answers by meaning and substitute only server-made values in later requests")
    func bindings() {
        var bindings = Bindings()
        let learning = bindings.learn(
            golden: ["cursor": "17", "rows": [["pk": "p", "seq": "17", "table": "t", "row": ["title": "17"]]], "has_more": false],
            live: ["cursor": "5", "rows": [["pk": "p", "seq": "5", "table": "t", "row": ["title": "17"]]], "has_more": false],
            at: "exchange 1 pull")
        #expect(learning.learned.map(\.description) == ["seq 17→5"])
        #expect(learning.violations.isEmpty)
        let (sent, substitutions) = bindings.translate(["cursor": "17", "buckets": [["table": "t", "params": ["owner_id": "17"]]]])
        #expect(sent["cursor"] == "5")
        #expect(sent["buckets"]?.arrayValue?.first?["params"]?["owner_id"] == "17")
        #expect(substitutions.map(\.description) == ["cursor 17→5 at /cursor"])
        #expect(substitutions.first?.origin?.description == "exchange 1 pull at /cursor")
        let composite = bindings.learn(golden: ["cursor": "3:19"], live: ["cursor": "3:6"], at: "exchange 2 pull")
        #expect(composite.violations.map(\.message) == [], "3 is unbound on both sides, so it binds to itself")
        #expect(bindings.translate(["cursor": "3:19"]).0["cursor"] == "3:6")
    }

    @Test("a recording of a corpus case replays green against the embedded server at tier pass")
    func replaysGreen() async throws {
        let replay = RecordingReplay()
        let suite = await replay.run(
            try Self.recording("push/008-composite-key-writes"), file: "r.jsonl",
            makeTarget: { () throws(TargetError) -> any KizunaSync.ServerTarget in try Self.embedded() }, properties: [])
        #expect(suite.tally.failures == 0 && suite.tally.errors == 0, "\(suite.cases)")
        #expect(suite.cases.map(\.name).first == "exchange 4 push (client …0001)")
        #expect(suite.properties.contains(SuiteResult.Property(name: "tier", value: "pass")))
    }

    @Test("the picture of a replayed recording draws what the server answered, the recorded answer beside it")
    func pictureDrawsTheLiveAnswer() async throws {
        let suite = await RecordingReplay().run(
            try Self.recording("push/002-rls-denied-not-a-wedge"), file: "r.jsonl",
            makeTarget: { () throws(TargetError) -> any KizunaSync.ServerTarget in
                do { return try ReferenceServer(faults: [.verdictDropped]) } catch { throw TargetError.refused("\(error)") }
            }, properties: [])
        #expect(suite.tally.failures > 0)
        let answers = (suite.timeline?.events ?? []).filter { $0.kind == .answer }.map(\.label)
        #expect(answers.contains("1 verdict (golden: 2 verdicts)"), "\(answers)")
        #expect(!answers.contains("2 verdicts"), "the recorded count is never drawn as the server's: \(answers)")
        let green = await RecordingReplay().run(
            try Self.recording("push/002-rls-denied-not-a-wedge"), file: "r.jsonl",
            makeTarget: { () throws(TargetError) -> any KizunaSync.ServerTarget in try Self.embedded() }, properties: [])
        #expect(
            !(green.timeline?.events ?? []).contains { $0.label.contains("(golden: ") },
            "a server that answers as recorded draws no golden beside")
    }

    @Test("a server that stamps other seqs reaches tier bound, and later requests carry its cursor")
    func otherSeqsAreSemantic() async throws {
        let recording = try Self.recording("push/008-composite-key-writes")
        let factory: KizunaSync.TargetFactory = { () throws(TargetError) -> any KizunaSync.ServerTarget in
            do { return try ShiftedSeqServer() } catch { throw TargetError.refused("\(error)") }
        }
        let strict = await RecordingReplay(requiredTier: .pass).run(recording, file: "r.jsonl", makeTarget: factory, properties: [])
        #expect(strict.tally.failures > 0)
        let messages = strict.cases.flatMap { result -> [String] in
            if case .failed(let failures) = result.outcome { return failures.map(\.message) }
            return []
        }
        #expect(messages.allSatisfy { $0.contains("tier bound") }, "\(messages)")
        let lenient = await RecordingReplay().run(recording, file: "r.jsonl", makeTarget: factory, properties: [])
        #expect(lenient.tally.failures == 0 && lenient.tally.errors == 0, "\(lenient.cases)")
        #expect(lenient.properties.contains(SuiteResult.Property(name: "tier", value: "bound")))
        #expect(lenient.cases.contains { $0.note?.contains("sent with cursor") == true }, "\(lenient.cases.map(\.note))")
    }

    @Test("plain HTTP exchanges and exchanges without a user are skipped with a reason")
    func skips() async throws {
        var recording = try Self.recording("push/001-insert-applied")
        var other = RecordedExchange(number: 100, rpc: "http", request: .null, response: .null, status: 404)
        other.path = "/auth/v1/user"
        var anonymous = RecordedExchange(number: 101, rpc: "pull", request: ["cursor": "0"], response: [:])
        anonymous.client = "c"
        recording.exchanges += [other, anonymous]
        let suite = await RecordingReplay().run(
            recording, file: "r.jsonl", makeTarget: { () throws(TargetError) -> any KizunaSync.ServerTarget in try Self.embedded() },
            properties: [])
        let skipped = suite.cases.filter { if case .skipped = $0.outcome { return true } else { return false } }
        #expect(skipped.map(\.name) == ["exchange 100 http (client unknown)", "exchange 101 pull (client …c)"])
        #expect(suite.tally.failures == 0)
    }

    @Test("differences lists every differing pointer")
    func differences() {
        let left: JSONValue = ["a": 1, "b": ["x", "y"], "c": ["d": true]]
        let pointers = left.differences(from: ["a": 2, "b": ["x"], "c": ["d": true, "e": nil]])
        #expect(pointers.map(\.description) == ["/a", "/b/1", "/c/e"])
    }

    static func embedded() throws(TargetError) -> any KizunaSync.ServerTarget {
        do { return try ReferenceServer() } catch { throw TargetError.refused("\(error)") }
    }
}
