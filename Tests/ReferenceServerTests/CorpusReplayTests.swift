import Corpus
import JSON
import KizunaWire
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// Every upstream transcript through the server lane against a fresh reference server: each rpc
/// step must reach tier pass (canonical bytes equal) and break no rule.
@Suite("Corpus replay: every upstream transcript against the reference server, byte for byte")
struct CorpusReplayTests {
    static func failures(of suite: SuiteResult) -> [String] {
        suite.cases.flatMap { result -> [String] in
            switch result.outcome {
            case .failed(let failures): failures.map(\.message)
            case .errored(let reason): ["\(result.name): \(reason)"]
            default: []
            }
        }
    }

    @Test("transcript replays byte-equal", arguments: SharedFiles.transcripts)
    func replay(_ file: String) async throws {
        let loaded = try SharedFiles.loaded(file)
        let suite = await ServerLane<KizunaSync>(scenarios: try SharedFiles.scenarios()).run(
            loaded, on: try ReferenceServer(), properties: [])
        for failure in Self.failures(of: suite) { Issue.record("\(loaded.transcript.caseID) \(failure)") }
        let rpcSteps = loaded.transcript.steps.filter { if case .rpc = $0.action { true } else { false } }.count
        let passedRPC = suite.cases.filter { $0.outcome == .passed && ($0.name.hasSuffix(" pull") || $0.name.hasSuffix(" push")) }.count
        #expect(passedRPC == rpcSteps, "every rpc step was compared and passed, none skipped")
    }

    @Test("the shared corpus is present")
    func corpusPresent() {
        #expect(SharedFiles.transcripts.count >= 40)
    }
}

@Suite("The replay oracle bites")
struct ReplayOracleTests {
    /// Doctored below what the server answers: a golden above every change the case made would
    /// read as a case that needs setup (`ScenarioNeeds`), not applicable rather than failed.
    @Test("a doctored golden cursor is reported at /cursor")
    func doctoredCursor() async throws {
        var loaded = try SharedFiles.loaded("transcripts/push/001-insert-applied.json")
        guard case .rpc(var exchange) = loaded.transcript.steps[4].action, exchange.rpc == .pull else {
            Issue.record("push/001 step 5 is not a pull")
            return
        }
        exchange.response = exchange.response.replacing(at: JSONPointer(tokens: ["cursor"]), with: "0")
        loaded.transcript.steps[4].action = .rpc(exchange)
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: try ReferenceServer(), properties: [])
        let failures = CorpusReplayTests.failures(of: suite)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("at /cursor") == true, "\(failures)")
    }

    @Test("every rpc step of the corpus is compared")
    func everyStepCompared() throws {
        var rpcSteps = 0
        for file in SharedFiles.transcripts {
            for step in try SharedFiles.transcript(file).steps {
                if case .rpc = step.action { rpcSteps += 1 }
            }
        }
        #expect(rpcSteps > 60)
    }
}
