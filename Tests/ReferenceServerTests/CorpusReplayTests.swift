import Corpus
import KizunaWire
import ReferenceServer
import ServerContract
import Testing

@Suite("Corpus replay: every upstream transcript against the reference server, byte for byte")
struct CorpusReplayTests {
    /// Cases the reference server does not yet answer byte for byte, with the reason.
    static let knownGaps: [String: String] = [:]

    @Test("transcript replays byte-equal", arguments: SharedFiles.transcripts)
    func replay(_ file: String) async throws {
        let transcript = try SharedFiles.transcript(file)
        let scenario = try SharedFiles.scenarios().scenario(for: transcript.caseID)
        let mismatches = try await CorpusReplay(transcript: transcript, scenario: scenario).run()
        if let reason = Self.knownGaps[transcript.caseID] {
            withKnownIssue("\(transcript.caseID): \(reason)") {
                for mismatch in mismatches { Issue.record("\(transcript.caseID) \(mismatch)") }
            }
        } else {
            for mismatch in mismatches { Issue.record("\(transcript.caseID) \(mismatch)") }
        }
    }

    @Test("the shared corpus is present")
    func corpusPresent() {
        #expect(SharedFiles.transcripts.count >= 40)
    }
}

@Suite("The replay oracle bites")
struct ReplayOracleTests {
    @Test("a doctored golden cursor is reported at /cursor")
    func doctoredCursor() async throws {
        var transcript = try SharedFiles.transcript("transcripts/pull/001-bootstrap-empty.json")
        guard case .rpc(var exchange) = transcript.steps[0].action else {
            Issue.record("pull/001 step 1 is not an rpc")
            return
        }
        exchange.response = exchange.response.replacing(at: JSONPointer(tokens: ["cursor"]), with: "1")
        transcript.steps[0].action = .rpc(exchange)
        let mismatches = try await CorpusReplay(transcript: transcript, scenario: .none).run()
        #expect(mismatches.count == 1)
        #expect(mismatches.first?.contains("differs at /cursor") == true)
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
