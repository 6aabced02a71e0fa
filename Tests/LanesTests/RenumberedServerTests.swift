import AccordTestSupport
import Corpus
import Foundation
import Harness
import JSON
import KizunaWire
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// The server lane follows the live conversation: a correct server that numbers differently
/// passes at tier bound, and one whose numbering breaks the golden-to-live bijection fails at
/// the step where the map breaks.
@Suite("server lane: bindings against renumbered servers")
struct RenumberedServerTests {
    static func scenarios() throws -> Scenarios {
        let path = RunnerFixtures.packageRoot + "/../shared/corpus-scenarios.json"
        return try Scenarios(json: try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))), file: path)
    }

    /// Every shared-corpus transcript, loaded.
    static func sharedTranscripts() throws -> [LoadedTranscript] {
        try Corpus(files: FolderFiles(root: RunnerFixtures.sharedCorpus)).cases.compactMap { item in
            if case .transcript(let loaded, _) = item { return loaded }
            return nil
        }
    }

    static func failures(_ suite: SuiteResult) -> [(step: String, failures: [Failure])] {
        suite.cases.compactMap { result in
            if case .failed(let failures) = result.outcome { return (result.name, failures) }
            return nil
        }
    }

    @Test("every seq and cursor 100 higher: the whole shared corpus passes at tier bound, with no rule finding")
    func offsetCorpusIsBound() async throws {
        let lane = ServerLane<KizunaSync>(scenarios: try Self.scenarios())
        var tiers: [String: Int] = [:]
        for loaded in try Self.sharedTranscripts() {
            let target = RenumberingServer(try ReferenceServer(), .offset(100))
            let suite = await lane.run(loaded, on: target, properties: [])
            #expect(suite.tally.failures == 0 && suite.tally.errors == 0, "\(suite.name): \(Self.failures(suite))")
            let tier = suite.properties.first { $0.name == "tier" }?.value ?? "?"
            tiers[tier, default: 0] += 1
        }
        #expect(tiers["diverged"] == nil, "\(tiers)")
        #expect((tiers["bound"] ?? 0) >= 30, "most cases carry seqs, so most land on bound: \(tiers)")
    }

    @Test("the same corpus against the unwrapped server stays at tier pass")
    func plainCorpusPasses() async throws {
        let lane = ServerLane<KizunaSync>(scenarios: try Self.scenarios(), requiredTier: .pass)
        for loaded in try Self.sharedTranscripts() {
            let suite = await lane.run(loaded, on: try ReferenceServer(), properties: [])
            #expect(suite.tally.failures == 0 && suite.tally.errors == 0, "\(suite.name): \(Self.failures(suite))")
            let tier = suite.properties.first { $0.name == "tier" }?.value
            #expect(
                tier == "pass" || (tier == "none" && loaded.transcript.steps.allSatisfy { $0.label != "pull" && $0.label != "push" }),
                "\(suite.name)")
        }
    }

    @Test("two golden cursors answered with one live cursor fail where the second is answered, naming both steps")
    func collapsedCursor() async throws {
        let loaded = try RunnerFixtures.transcript("tombstones/003-bucket-scoped-delete")
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(
            loaded, on: RenumberingServer(try ReferenceServer(), .collapseLaterCursors), properties: [])
        let first = try #require(Self.failures(suite).first)
        #expect(first.step == "step 4 pull")
        let binding = try #require(first.failures.first { $0.ruleID == "AC-BINDING" })
        #expect(binding.message.contains("two golden values, one live one"), "\(binding.message)")
        #expect(binding.message.contains("step 2 pull"), "\(binding.message)")
        #expect(binding.message.contains("step 4 pull at /cursor"), "\(binding.message)")
    }

    @Test("a later page carrying seqs below an earlier page's fails there: order inverted, naming both steps")
    func seqsOutOfOrder() async throws {
        let loaded = try RunnerFixtures.transcript("pull/002-keyset-pagination")
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(
            loaded, on: RenumberingServer(try ReferenceServer(), .laterPullsBelowEarlier), properties: [])
        let first = try #require(Self.failures(suite).first)
        #expect(first.step == "step 6 pull")
        let binding = try #require(first.failures.first { $0.ruleID == "AC-BINDING" })
        #expect(binding.message.hasPrefix("step 6 pull: AC-BINDING order inverted"), "\(binding.message)")
        #expect(binding.message.contains("step 4 pull"), "\(binding.message)")
    }

    @Test("a server that drops the hole of a held write from its cursor fails at that step, not bound")
    func droppedHole() async throws {
        let loaded = try RunnerFixtures.transcript("fencing/001-late-commit-delivered")
        let target = GoldenTarget(loaded) { n, body in n == 3 ? body.replacing(at: JSONPointer(tokens: ["cursor"]), with: "6") : body }
        let suite = await ServerLane<KizunaSync>(scenarios: try Self.scenarios()).run(loaded, on: target, properties: [])
        let first = try #require(Self.failures(suite).first)
        #expect(first.step == "step 3 pull")
        #expect(
            first.failures.contains { $0.ruleID == "AC-BINDING" && $0.message.contains("a token of another shape") }, "\(first.failures)")
    }

    @Test("a write applied twice on a densely numbered server is caught by the seq it spent")
    func spentSeq() async throws {
        let loaded = try RunnerFixtures.transcript("push/003-replay-returns-recorded-verdicts")
        let target = RenumberingServer(try ReferenceServer(faults: [.replayAppliesAgain]), .offset(100))
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: target, properties: [])
        let first = try #require(Self.failures(suite).first)
        #expect(first.step == "step 6 pull")
        #expect(first.failures.first?.ruleID == "AC-BINDING")
        #expect(first.failures.first?.message.contains("runs ahead of the golden one (a write applied again") == true, "\(first.failures)")
    }
}
