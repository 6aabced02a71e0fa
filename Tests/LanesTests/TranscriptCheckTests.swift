import Checks
import Corpus
import Foundation
import Harness
import JSON
import Lanes
import Reports
import Testing

/// `TranscriptCheck`: one suite per transcript, one case per step and per postcondition.
@Suite("TranscriptCheck on shared transcripts")
struct TranscriptCheckTests {
    /// Between them these cover every step kind: rpc, server, local, fault and assert.
    static let transcripts = [
        "push/003-replay-returns-recorded-verdicts", "fencing/001-late-commit-delivered", "array/001-concurrent-union",
        "pull/001-bootstrap-empty",
    ]

    static let properties = [SuiteResult.Property(name: "lane", value: "check")]

    /// The lane a skipped step's reason must name.
    static func lane(of action: StepAction) -> String? {
        switch action {
        case .rpc: nil
        case .server, .reap: "server lane"
        case .local: "client lane"
        case .fault: "server and client lanes"
        case .assert: "client lane"
        }
    }

    @Test("the chosen transcripts cover every step kind")
    func coverage() throws {
        var labels = Set<String>()
        for name in Self.transcripts {
            for step in try RunnerFixtures.transcript(name).transcript.steps {
                labels.insert(step.label.split(separator: " ").first.map(String.init) ?? step.label)
            }
        }
        #expect(labels.isSuperset(of: ["push", "pull", "server", "local", "fault", "assert"]), "\(labels)")
    }

    @Test("one canonical-bytes case, one case per step, one skipped case per postcondition", arguments: transcripts)
    func suiteShape(_ name: String) throws {
        let loaded = try RunnerFixtures.transcript(name)
        let transcript = loaded.transcript
        let suite = TranscriptCheck.suite(loaded, properties: Self.properties)
        #expect(suite.name == transcript.caseID)
        #expect(suite.file == loaded.file)
        #expect(suite.properties == Self.properties)
        #expect(suite.cases.count == 1 + transcript.steps.count + transcript.postconditions.count)
        #expect(suite.cases.allSatisfy { $0.classname == "kizuna.check.\(transcript.caseID.replacingOccurrences(of: "/", with: "."))" })

        let first = try #require(suite.cases.first)
        #expect(first.name == "file canonical bytes")
        #expect(first.outcome == .passed)

        let stepCases = suite.cases.dropFirst().prefix(transcript.steps.count)
        for (step, result) in zip(transcript.steps, stepCases) {
            #expect(result.name == "step \(step.n) \(step.label)")
            if let lane = Self.lane(of: step.action) {
                guard case .skipped(let reason) = result.outcome else {
                    Issue.record("\(result.name) is \(result.outcome), not skipped")
                    continue
                }
                #expect(reason.contains(lane), "\(result.name): \(reason)")
            } else {
                #expect(result.outcome == .passed, "\(result.name): \(result.outcome)")
            }
        }

        let postconditions = Array(suite.cases.suffix(transcript.postconditions.count))
        for (index, result) in postconditions.enumerated() {
            #expect(result.name.hasPrefix("postcondition \(index + 1) "), "\(result.name)")
            guard case .skipped(let reason) = result.outcome else {
                Issue.record("\(result.name) is \(result.outcome), not skipped")
                continue
            }
            #expect(reason.contains("client lane"), "\(reason)")
        }

        let tally = suite.tally
        let rpcSteps = transcript.steps.filter { if case .rpc = $0.action { true } else { false } }.count
        #expect(tally.failures == 0 && tally.errors == 0)
        #expect(tally.passed == 1 + rpcSteps)
        #expect(tally.skipped == transcript.steps.count - rpcSteps + transcript.postconditions.count)
    }

    @Test(
        "every skipped step kind names its lane",
        arguments: [
            ("push/003-replay-returns-recorded-verdicts", "local", "client lane (accord run --client)"),
            ("push/003-replay-returns-recorded-verdicts", "fault", "server and client lanes"),
            ("push/003-replay-returns-recorded-verdicts", "assert", "client lane (accord run --client)"),
            ("fencing/001-late-commit-delivered", "server", "server lane (accord run --server)"),
        ])
    func skipReasons(_ name: String, _ label: String, _ lane: String) throws {
        let suite = TranscriptCheck.suite(try RunnerFixtures.transcript(name), properties: [])
        let matching = suite.cases.filter {
            $0.name.hasPrefix("step ") && $0.name.split(separator: " ").dropFirst(2).first.map(String.init) == label
        }
        #expect(!matching.isEmpty, "\(name) has a \(label) step")
        for result in matching {
            guard case .skipped(let reason) = result.outcome else {
                Issue.record("\(result.name) is \(result.outcome), not skipped")
                continue
            }
            #expect(reason.contains(lane), "\(result.name): \(reason)")
        }
    }

    @Test("offline, the blocked manifest entry becomes one skipped case naming its decision")
    func blockedSuite() throws {
        let corpus = try Corpus(files: FolderFiles(root: RunnerFixtures.sharedCorpus))
        let entries = corpus.cases.compactMap { item -> Manifest.Entry? in
            if case .blocked(let entry) = item { entry } else { nil }
        }
        let entry = try #require(entries.first)
        let decision = try #require(entry.blockedOn?.first)

        let titled = TranscriptCheck.blockedSuite(entry, decisions: [decision: "open: the title"], properties: Self.properties)
        #expect(titled.name == entry.id)
        #expect(titled.file == nil)
        #expect(titled.properties == Self.properties)
        #expect(titled.cases.count == 1)
        #expect(titled.cases.first?.name == "blocked")
        #expect(titled.cases.first?.classname == "kizuna.check.\(entry.id.replacingOccurrences(of: "/", with: "."))")
        #expect(titled.cases.first?.outcome == .skipped("blocked on \(decision) (open: the title)"))

        let bare = TranscriptCheck.blockedSuite(entry, decisions: [:], properties: [])
        #expect(bare.cases.first?.outcome == .skipped("blocked on \(decision)"))
    }

    @Test("in a live lane the blocked manifest entry is no test case: a blocked_on property names its decision")
    func blockedSuiteLive() throws {
        let entry = try #require(
            try Corpus(files: FolderFiles(root: RunnerFixtures.sharedCorpus)).cases.compactMap { item -> Manifest.Entry? in
                if case .blocked(let entry) = item { entry } else { nil }
            }.first)
        let decision = try #require(entry.blockedOn?.first)
        for lane in ["server", "client", "client-kill-matrix"] {
            let suite = TranscriptCheck.blockedSuite(entry, decisions: [:], properties: [SuiteResult.Property(name: "lane", value: lane)])
            #expect(suite.cases.isEmpty, "\(lane)")
            #expect(suite.properties.last == SuiteResult.Property(name: SuiteResult.blockedProperty, value: decision), "\(lane)")
        }
    }

    @Test("a finding's Failure carries the rule id, a one-line message naming the step, and the actual value")
    func findingFailure() throws {
        // A regressing cursor: fencing/002 step 4 answers cursor "0" after a higher one (I-3).
        let loaded = try RunnerFixtures.editedTranscript("fencing/002-overlap-redelivery-idempotent", [("/steps/3/response/cursor", "0")])
        let suite = TranscriptCheck.suite(loaded, properties: [])
        #expect(suite.cases.first?.outcome == .passed, "re-rendered canonically, the bytes still pass I-1")
        let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }
        #expect(failed.map(\.name) == ["step 4 pull"])
        let result = try #require(failed.first)
        guard case .failed(let failures) = result.outcome else { return }
        #expect(!failures.isEmpty)
        for failure in failures {
            #expect(failure.ruleID == "I-3", "\(failure)")
            #expect(failure.message.hasPrefix("step 4 "), "\(failure.message)")
            #expect(failure.message.contains("I-3"), "\(failure.message)")
            #expect(!failure.message.contains("\n"), "one line: \(failure.message)")
            #expect(failure.body.contains("actual: "), "\(failure.body)")
        }
    }

    @Test("failure() renders expected and actual against the step's JSON")
    func failureBody() throws {
        let finding = Finding(
            "I-5", at: StepLocation(number: 7, label: "push"), pointer: JSONPointer(tokens: ["response", "verdicts", "1"]),
            "verdict 1 answers the wrong mutation", expected: ["mutation_id": "a"])
        let scope: JSONValue = ["response": ["verdicts": [["mutation_id": "a"], ["mutation_id": "b"]]]]
        let failure = TranscriptCheck.failure(finding, in: scope)
        #expect(failure.ruleID == "I-5")
        #expect(failure.message == "step 7 push: I-5 verdict 1 answers the wrong mutation (at /response/verdicts/1)")
        #expect(failure.body == "expected: {\"mutation_id\":\"a\"}\nactual: {\"mutation_id\":\"b\"}")

        let fileLevel = Finding("I-1", at: nil, pointer: JSONPointer(tokens: []), "not canonical")
        let plain = TranscriptCheck.failure(fileLevel, in: scope)
        #expect(plain.message == "file: I-1 not canonical")
        #expect(plain.body.isEmpty, "no pointer and no actual value: no body")
    }

    @Test("non-canonical bytes fail the file canonical bytes case or the step they sit in")
    func nonCanonicalBytes() throws {
        let path = RunnerFixtures.transcriptPath("push/001-insert-applied")
        var raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        raw += Array("\n".utf8)
        let loaded = try LoadedTranscript(raw: raw, file: path)
        let suite = TranscriptCheck.suite(loaded, properties: [])
        #expect(suite.tally.failures > 0)
        let failures = suite.cases.flatMap { result -> [Failure] in
            if case .failed(let failures) = result.outcome { failures } else { [] }
        }
        #expect(failures.allSatisfy { $0.ruleID == "I-1" }, "\(failures)")
    }
}
