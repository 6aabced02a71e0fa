import AccordTestSupport
import Corpus
import Foundation
import Harness
import JSON
import KizunaWire
import Reports
import ServerContract
import Testing

@testable import Lanes

/// A target that answers every rpc with the golden response of a transcript, in order, after
/// an optional edit: a stand-in server that is right (or wrong) by construction.
actor GoldenTarget: KizunaSync.ServerTarget {
    private var replies: [JSONValue]
    private let baseShift: Int64
    private(set) var calls: [String] = []

    init(_ loaded: LoadedTranscript, baseShift: Int64 = 0, edit: @Sendable (Int, JSONValue) -> JSONValue = { $1 }) {
        self.baseShift = baseShift
        var replies: [JSONValue] = []
        for step in loaded.transcript.steps {
            switch step.action {
            case .rpc(let exchange): replies.append(edit(step.n, exchange.response))
            case .fault(let fault) where fault.fault == .dropAck: replies.append(["dropped": true])
            default: break
            }
        }
        self.replies = replies
    }

    func capabilities() async throws(TargetError) -> TargetCapabilities { .reference }
    func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        calls.append("seed next_seq=\(seed.nextSeq) history=\(seed.history.count)")
        let asked = SeedReceipt.asSeeded(seed)
        return SeedReceipt(base: SequenceNumber(UInt64((Int64(asked.base.text) ?? 0) + baseShift)), history: asked.history)
    }
    func setStep(_ step: Int) async throws(TargetError) {}
    func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        calls.append("apply\(transaction.map { " in \($0)" } ?? "")")
    }
    func commit(transaction: String) async throws(TargetError) { calls.append("commit \(transaction)") }
    func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { next() }
    func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { next() }

    private func next() -> RPCReply {
        guard !replies.isEmpty else { return .error(status: 500, code: "XX000", message: "no more golden replies") }
        return RPCReply(status: 200, body: replies.removeFirst())
    }
}

@Suite("server lane")
struct ServerLaneTests {
    static func scenarios() throws -> Scenarios {
        let path = RunnerFixtures.packageRoot + "/../shared/corpus-scenarios.json"
        return try Scenarios(json: try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))), file: path)
    }

    @Test("a target that answers the golden bytes passes every rpc step at tier pass")
    func goldenTargetPasses() async throws {
        let loaded = try RunnerFixtures.transcript("push/002-rls-denied-not-a-wedge")
        let suite = await ServerLane<KizunaSync>(scenarios: try Self.scenarios()).run(loaded, on: GoldenTarget(loaded), properties: [])
        #expect(suite.tally.failures == 0 && suite.tally.errors == 0)
        #expect(suite.properties.contains(SuiteResult.Property(name: "tier", value: "pass")))
        let push = try #require(suite.cases.first { $0.name == "step 7 push" })
        #expect(push.outcome == .passed)
        #expect(push.note?.hasPrefix("tier pass") == true)
    }

    @Test("a dropped verdict fails I-5 and AC-GOLDEN at that step and nowhere else")
    func droppedVerdictFails() async throws {
        let loaded = try RunnerFixtures.transcript("push/002-rls-denied-not-a-wedge")
        let target = GoldenTarget(loaded) { n, body in
            n == 7 ? body.replacing(at: JSONPointer(tokens: ["verdicts", "1"]), with: nil) : body
        }
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: target, properties: [])
        let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }
        #expect(failed.map(\.name) == ["step 7 push"])
        guard case .failed(let failures)? = failed.first?.outcome else { return }
        #expect(Set(failures.map(\.ruleID)) == ["I-5", "AC-GOLDEN"])
        #expect(failures.allSatisfy { $0.message.hasPrefix("step 7 push") })
        #expect(suite.properties.contains(SuiteResult.Property(name: "tier", value: "diverged")))
    }

    @Test("a cursor that runs ahead of its rows cannot be bound: AC-BINDING at that step, naming both places")
    func cursorAheadOfRows() async throws {
        let loaded = try RunnerFixtures.transcript("pull/004-exact-fit-closes-checkpoint")
        let edit: @Sendable (Int, JSONValue) -> JSONValue = { n, body in
            n == 3 ? body.replacing(at: JSONPointer(tokens: ["cursor"]), with: "3") : body
        }
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: GoldenTarget(loaded, edit: edit), properties: [])
        let step = try #require(suite.cases.first { $0.name == "step 3 pull" })
        guard case .failed(let failures) = step.outcome else {
            Issue.record("step 3 should fail: \(step)")
            return
        }
        let binding = try #require(failures.first { $0.ruleID == "AC-BINDING" })
        #expect(binding.message.contains("golden seq \"2\" was answered with \"2\" at step 3 pull at /rows/1/seq"), "\(binding.message)")
        #expect(binding.message.contains("\"3\" at step 3 pull at /cursor"), "\(binding.message)")
        #expect(suite.properties.contains(SuiteResult.Property(name: "tier", value: "diverged")))
    }

    @Test("a server whose seqs are all 100 higher reaches tier bound: a pass by default, a failure with --tier pass")
    func boundTier() async throws {
        let loaded = try RunnerFixtures.transcript("pull/004-exact-fit-closes-checkpoint")
        let edit: @Sendable (Int, JSONValue) -> JSONValue = { _, body in
            var map = SeqMap(.offset(100))
            return map.rewrite(body, outward: true)
        }
        let lenient = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(
            loaded, on: GoldenTarget(loaded, baseShift: 100, edit: edit), properties: [])
        #expect(lenient.tally.failures == 0, "\(lenient.cases)")
        #expect(lenient.properties.contains(SuiteResult.Property(name: "tier", value: "bound")))
        let strict = await ServerLane<KizunaSync>(scenarios: Scenarios(), requiredTier: .pass)
            .run(loaded, on: GoldenTarget(loaded, baseShift: 100, edit: edit), properties: [])
        #expect(strict.tally.failures == 1, "\(strict.cases)")
    }

    @Test("held transactions from the scenarios are applied held and committed after their step")
    func heldTransactions() async throws {
        let loaded = try RunnerFixtures.transcript("fencing/001-late-commit-delivered")
        let target = GoldenTarget(loaded)
        _ = await ServerLane<KizunaSync>(scenarios: try Self.scenarios()).run(loaded, on: target, properties: [])
        let calls = await target.calls
        #expect(calls == ["seed next_seq=5 history=0", "apply in t1", "apply", "commit t1"])
    }

    @Test("client-side steps and postconditions are not test cases: the suite counts them for the client lane")
    func clientStepsLeftToClientLane() async throws {
        let loaded = try RunnerFixtures.transcript("push/003-replay-returns-recorded-verdicts")
        let transcript = loaded.transcript
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: GoldenTarget(loaded), properties: [])
        let clientSide = transcript.steps.filter { step in
            switch step.action {
            case .local, .assert: true
            case .fault(let fault): fault.fault != .dropAck
            default: false
            }
        }
        #expect(!clientSide.isEmpty && !transcript.postconditions.isEmpty)
        #expect(suite.cases.count == transcript.steps.count - clientSide.count)
        #expect(suite.cases.allSatisfy { !$0.name.hasPrefix("postcondition") })
        #expect(!suite.cases.contains { result in clientSide.contains { result.name == "step \($0.n) \($0.label)" } })
        #expect(suite.tally.skipped == 0)
        let left = suite.properties.first { $0.name == "left_to_client_lane" }?.value
        #expect(left == "\(clientSide.count + transcript.postconditions.count)")
        #expect(suite.cases.allSatisfy { $0.classname == "kizuna.server.push.003-replay-returns-recorded-verdicts" })
        #expect(suite.cases.allSatisfy { $0.time > 0 }, "each test case carries the time its step took")
    }

    @Test("a known-failing case that fails is skipped; one that passes fails as stale")
    func knownFailing() throws {
        let list = try Expectations(knownFailing: "# comment\npush/002-x  # flaky\n\n", file: "kf.txt")
        #expect(list.caseIDs == ["push/002-x"])
        let failing = SuiteResult(
            name: "push/002-x",
            cases: [CaseResult(name: "step 1 push", classname: "k", outcome: .failed([Failure(ruleID: "I-5", message: "m")]))])
        #expect(list.apply(to: failing).tally.failures == 0)
        #expect(list.apply(to: failing).tally.skipped == 1)
        let passing = SuiteResult(name: "push/002-x", cases: [CaseResult(name: "step 1 push", classname: "k", outcome: .passed)])
        let stale = list.apply(to: passing)
        #expect(stale.tally.failures == 1)
        #expect(stale.cases.last?.name == "known-failing entry")
        #expect(throws: CorpusError.self) { _ = try Expectations(knownFailing: "a b\n", file: "kf.txt") }
    }
}

@Suite("server lane: review regressions")
struct ServerLaneReviewTests {
    @Test("bindings leave user data alone: a row's deleted_at column is compared, not translated")
    func bindingsSpareRowData() {
        let golden: JSONValue = [
            "cursor": "3", "rows": [["pk": "p", "row": ["deleted_at": "2026-01-01T00:00:01.000Z"], "seq": "3", "table": "todos"]],
        ]
        let moved: JSONValue = [
            "cursor": "4", "rows": [["pk": "p", "row": ["deleted_at": "2026-01-01T00:00:01.000Z"], "seq": "4", "table": "todos"]],
        ]
        var bindings = Bindings()
        // A tombstone with the same time binds that time, so only the data key keeps the row's column untranslated.
        let tombstone = "2026-01-01T00:00:01.000Z"
        _ = bindings.learn(
            golden: ["cursor": "2", "tombstones": [["deleted_at": .string(tombstone), "pk": "q", "seq": "2", "table": "todos"]]],
            live: ["cursor": "3", "tombstones": [["deleted_at": "2026-12-01T00:00:01.000Z", "pk": "q", "seq": "3", "table": "todos"]]],
            at: "step 0 pull")
        #expect(bindings.translate(["deleted_at": .string(tombstone)]).0["deleted_at"] == "2026-12-01T00:00:01.000Z")
        #expect(bindings.learn(golden: golden, live: moved, at: "step 1 pull").violations.isEmpty)
        #expect(CanonicalJSON.compact(bindings.translate(golden).0) == CanonicalJSON.compact(moved))
        let changedData = moved.replacing(at: JSONPointer(tokens: ["rows", "0", "row", "deleted_at"]), with: "2026-01-01T00:00:09.000Z")
        #expect(CanonicalJSON.compact(bindings.translate(golden).0) != CanonicalJSON.compact(changedData))
    }

    @Test("a known-failing entry that names no case of the inputs fails")
    func unknownKnownFailingEntry() throws {
        let list = try Expectations(knownFailing: "push/999-typo\npush/001-insert-applied\n", file: "kf.txt")
        let suite = try #require(list.unknownEntries(among: ["push/001-insert-applied"]))
        #expect(suite.tally.failures == 1)
        guard case .failed(let failures)? = suite.cases.first?.outcome else { return }
        #expect(failures.map(\.ruleID) == ["AC-KNOWN-FAILING"])
        #expect(failures.first?.message.contains("push/999-typo") == true)
        #expect(list.unknownEntries(among: ["push/001-insert-applied", "push/999-typo"]) == nil)
    }
}
