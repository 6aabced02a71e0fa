import AccordDriver
import AccordTestSupport
import Corpus
import KizunaWire
import Reports
import Testing

@testable import Lanes

/// A second engine, written in a few dozen lines against the driver library, goes through the
/// client lane: it passes where its shortcuts do not matter and fails, naming the rule and the
/// step, where they break the protocol.
@Suite("Client lane with a toy engine")
struct ClientLaneToyTests {
    static func play(_ caseID: String, quirks: Set<ToyEngine.Quirk> = []) async throws -> SuiteResult {
        let loaded = try RunnerFixtures.transcript(caseID)
        return await ClientLane<KizunaSync>(requestTimeout: .seconds(10)).run(
            loaded, launch: { InProcessDriver(engine: ToyEngine(quirks: quirks)) }, properties: [])
    }

    static func failures(_ suite: SuiteResult) -> [String] {
        suite.cases.flatMap { result -> [String] in
            guard case .failed(let failures) = result.outcome else { return [] }
            return failures.map { "\(result.name): \($0.ruleID)" }
        }
    }

    @Test("an insert pushed and pulled back passes")
    func insertPasses() async throws {
        let suite = try await Self.play("push/001-insert-applied")
        #expect(Self.failures(suite).isEmpty, "\(suite.cases)")
        #expect(suite.cases.contains { $0.name.hasPrefix("postcondition") && $0.outcome == .passed })
    }

    @Test("keeping the optimistic value after a rejection fails CL-LOCAL-ROW at the assert")
    func rejectionKeepsOptimisticValue() async throws {
        let suite = try await Self.play("push/004-precondition-rejected")
        let failures = Self.failures(suite)
        #expect(failures == ["step 7 assert: CL-LOCAL-ROW"], "\(failures)")
    }

    @Test("committing a staged page fails CL-CHECKPOINT at that pull")
    func stagedPageCommitted() async throws {
        let suite = try await Self.play("pull/002-keyset-pagination")
        let failures = Self.failures(suite)
        #expect(failures.contains("step 4 pull: CL-CHECKPOINT"), "\(failures)")
    }

    @Test("ignoring RESET_REQUIRED fails CL-OUTCOME at the signalled pull")
    func signalIgnored() async throws {
        let suite = try await Self.play("lifecycle/002-reset-required")
        let failures = Self.failures(suite)
        #expect(failures.contains("step 1 pull: CL-OUTCOME"), "\(failures)")
    }

    @Test("a case needing a capability the toy lacks is unsupported, not failed")
    func missingCapability() async throws {
        let suite = try await Self.play("push/005-atomic-batch-revert")
        #expect(Self.failures(suite).isEmpty)
        let first = try #require(suite.cases.first)
        guard case .skipped(let reason) = first.outcome else {
            Issue.record("expected a skipped case, got \(first.outcome)")
            return
        }
        #expect(reason.contains("atomic"))
    }

    @Test("an RPC that no step asked for fails CL-REQUEST, named after the step it followed")
    func strayRPC() async throws {
        let suite = try await Self.play("push/001-insert-applied", quirks: [.rpcOnWrite])
        let failures = Self.failures(suite)
        #expect(failures.first == "step 1 local unexpected RPC: CL-REQUEST", "\(failures)")
    }

    @Test("a refused write that still queues its entry fails CL-EXPECT-ERROR")
    func refusedButQueued() async throws {
        let suite = try await Self.play("lifecycle/004-soft-delete-violation", quirks: [.queueRefusedWrite])
        let failures = Self.failures(suite)
        #expect(failures.contains("step 2 local: CL-EXPECT-ERROR"), "\(failures)")
        let clean = try await Self.play("lifecycle/004-soft-delete-violation", quirks: [])
        #expect(clean.cases.first?.outcome == .skipped("unsupported: the driver lacks the capabilities soft-delete"))
    }
}
