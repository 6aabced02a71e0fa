import Corpus
import Foundation
import KizunaWire
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// Each seeded server fault changes the server's behaviour: one small case through the server
/// lane passes on the unmutated server and fails, with the expected rule at the expected step,
/// with the switch on. The cases are the ones `accord selftest` reports as the first kill.
@Suite("Server faults")
struct ServerFaultTests {
    /// A fault, the case that catches it, and the failure it must produce.
    struct Kill: Sendable, CustomTestStringConvertible {
        var fault: ServerFault
        /// Relative to the shared corpus, or to the package root when it starts with Conformance/.
        var file: String
        var step: String
        var rule: String
        var testDescription: String { fault.rawValue }
    }

    static let kills: [Kill] = [
        Kill(fault: .cursorPlusOne, file: "transcripts/conflict/001-different-columns-merge.json", step: "step 2 pull", rule: "AC-BINDING"),
        Kill(fault: .verdictsReordered, file: "transcripts/push/002-rls-denied-not-a-wedge.json", step: "step 7 push", rule: "I-5"),
        Kill(fault: .verdictDropped, file: "transcripts/conflict/001-different-columns-merge.json", step: "step 6 push", rule: "I-5"),
        Kill(fault: .duplicateVerdict, file: "transcripts/conflict/001-different-columns-merge.json", step: "step 6 push", rule: "I-5"),
        Kill(fault: .abortNonAtomic, file: "transcripts/increment/007-atomic-batch.json", step: "step 6 pull", rule: "AC-GOLDEN"),
        Kill(fault: .offenderOutsideBatch, file: "transcripts/increment/007-atomic-batch.json", step: "step 5 push", rule: "AC-OFFENDER"),
        Kill(
            fault: .signalWithRows, file: "Conformance/transcripts/lifecycle/900-stale-schema-pull-with-rows-gets-empty-signal.json",
            step: "step 2 pull", rule: "I-8"),
        Kill(
            fault: .pageOverLimit, file: "transcripts/lifecycle/005-bootstrap-after-reap-pages-to-completion.json", step: "step 1 pull",
            rule: "I-9a"),
        Kill(fault: .hasMoreOnShortPage, file: "transcripts/conflict/001-different-columns-merge.json", step: "step 2 pull", rule: "I-9c"),
        Kill(fault: .unsortedPage, file: "transcripts/fencing/001-late-commit-delivered.json", step: "step 6 pull", rule: "I-10"),
        Kill(fault: .holeDropped, file: "transcripts/fencing/001-late-commit-delivered.json", step: "step 3 pull", rule: "AC-GOLDEN"),
        Kill(
            fault: .replayAppliesAgain, file: "transcripts/push/003-replay-returns-recorded-verdicts.json", step: "step 6 pull",
            rule: "AC-BINDING"),
        Kill(
            fault: .rejectedLeavesEffect, file: "Conformance/transcripts/push/900-not-null-violation-is-constraint.json",
            step: "step 7 pull", rule: "AC-GOLDEN"),
        Kill(
            fault: .tombstoneNotDelivered, file: "transcripts/rebase/003-tombstone-does-not-resurrect.json", step: "step 6 pull",
            rule: "AC-GOLDEN"),
        Kill(fault: .rlsNotEnforced, file: "transcripts/push/002-rls-denied-not-a-wedge.json", step: "step 7 push", rule: "AC-GOLDEN"),
        Kill(fault: .preconditionIgnored, file: "transcripts/push/004-precondition-rejected.json", step: "step 6 push", rule: "AC-GOLDEN"),
        Kill(
            fault: .arrivalOrderReversed, file: "transcripts/conflict/001-different-columns-merge.json", step: "step 8 pull",
            rule: "AC-GOLDEN"),
        Kill(fault: .hlcIgnored, file: "transcripts/conflict/003-hlc-origin-order.json", step: "step 6 push", rule: "AC-GOLDEN"),
        Kill(fault: .softBlockMissing, file: "transcripts/lifecycle/002-reset-required.json", step: "step 1 pull", rule: "AC-GOLDEN"),
        Kill(
            fault: .checkpointNeverExpires, file: "transcripts/lifecycle/001-checkpoint-expired-rehydrate.json", step: "step 1 pull",
            rule: "AC-GOLDEN"),
    ]

    @Test("the switch turns a passing case into the expected failure", arguments: kills)
    func switchBites(_ kill: Kill) async throws {
        let url =
            kill.file.hasPrefix("Conformance/")
            ? SharedFiles.packageRoot.appendingPathComponent(kill.file) : SharedFiles.corpus.appendingPathComponent(kill.file)
        let loaded = try LoadedTranscript(raw: try SharedFiles.bytes(url), file: kill.file)
        let lane = ServerLane<KizunaSync>(scenarios: try SharedFiles.scenarios())
        let clean = await lane.run(loaded, on: try ReferenceServer(), properties: [])
        #expect(Self.failures(clean).isEmpty, "the unmutated server fails \(kill.file): \(Self.failures(clean))")
        let mutated = await lane.run(loaded, on: try ReferenceServer(faults: [kill.fault]), properties: [])
        let first = Self.failures(mutated).first
        #expect(first?.step == kill.step, "\(Self.failures(mutated))")
        #expect(first?.rules.contains(kill.rule) == true, "\(Self.failures(mutated))")
    }

    @Test("every fault has a case above; all are off by default")
    func catalogue() {
        let covered = Set(Self.kills.map(\.fault))
        #expect(Set(ServerFault.allCases).subtracting(covered).isEmpty)
        #expect(ServerFault.allCases.count >= 16)
        #expect(Set(ServerFault.allCases.map(\.rawValue)).count == ServerFault.allCases.count)
    }

    @Test("signal-with-rows: a RESET_REQUIRED pull delivers the page too")
    func signalWithRows() async throws {
        let history = [Fixture.upsert(Fixture.row1, Fixture.todo("a"))]
        let config = Fixture.config(minSchema: 2)
        let clean = try await Fixture.server(config, history: history)
        let signalled = try await clean.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(signalled.body["signal"]?["type"]?.stringValue == "RESET_REQUIRED")
        #expect(signalled.rowKeys.isEmpty)
        let mutated = try ReferenceServer(faults: [.signalWithRows])
        try await mutated.seed(Seed(server: config, nextSeq: SequenceNumber(1), history: history))
        let reply = try await mutated.pull(Fixture.pull(cursor: "0"), as: Fixture.callerA)
        #expect(reply.body["signal"]?["type"]?.stringValue == "RESET_REQUIRED")
        #expect(reply.rowKeys == [Fixture.row1])
    }

    @Test("signal-with-rows on lifecycle/900: the server lane fails step 2 with I-8 first, and I-9e for the cursor not echoed")
    func signalWithRowsFindings() async throws {
        let file = "Conformance/transcripts/lifecycle/900-stale-schema-pull-with-rows-gets-empty-signal.json"
        let loaded = try LoadedTranscript(raw: try SharedFiles.bytes(SharedFiles.packageRoot.appendingPathComponent(file)), file: file)
        let lane = ServerLane<KizunaSync>(scenarios: try SharedFiles.scenarios())
        let clean = await lane.run(loaded, on: try ReferenceServer(), properties: [])
        #expect(Self.failures(clean).isEmpty, "\(Self.failures(clean))")
        #expect(clean.cases.contains { $0.name == "step 2 pull" && $0.outcome == .passed }, "\(clean.cases.map(\.name))")
        let mutated = await lane.run(loaded, on: try ReferenceServer(faults: [.signalWithRows]), properties: [])
        let failures = Self.failures(mutated)
        #expect(failures.map(\.step) == ["step 2 pull"], "\(failures)")
        #expect(failures.first?.rules.first == "I-8", "\(failures)")
        #expect(failures.first?.rules.contains("I-9e") == true, "\(failures)")
    }

    /// The failed steps of a suite, in order, with their rule ids.
    static func failures(_ suite: SuiteResult) -> [(step: String, rules: [String])] {
        suite.cases.compactMap { item in
            switch item.outcome {
            case .failed(let failures): (item.name, failures.map(\.ruleID.rawValue))
            case .errored(let message): (item.name, ["ERROR: \(message)"])
            case .passed, .skipped: nil
            }
        }
    }
}
