import Corpus
import Foundation
import JSON
import Testing

@Suite("Transcript decoding")
struct TranscriptTests {
    static let sample = "transcripts/push/001-insert-applied.json"

    @Test("the shared corpus holds 40 transcripts")
    func corpusSize() {
        #expect(SharedCorpus.transcriptPaths.count == 40)
    }

    @Test("every transcript in the shared corpus decodes", arguments: SharedCorpus.transcriptPaths)
    func everyTranscriptDecodes(path: String) throws {
        let raw = try SharedCorpus.bytes(path)
        let loaded = try LoadedTranscript(raw: raw, file: path)
        let transcript = loaded.transcript
        #expect(path == "transcripts/\(transcript.caseID).json")
        #expect(loaded.file == path)
        #expect(loaded.raw == raw)
        #expect(loaded.json == (try JSONParser.parse(raw)))
        #expect(!transcript.steps.isEmpty)
        #expect(transcript.steps.map(\.n) == Array(1...transcript.steps.count))
        #expect(Transcript.isCaseID(transcript.caseID))
        #expect(transcript.area == String(transcript.caseID.split(separator: "/")[0]))
        #expect(!transcript.title.isEmpty)
        #expect(!transcript.context.server.tables.isEmpty)
    }

    @Test("step kinds and labels of push/003 (local, assert, fault, push, pull)")
    func stepKindsAndLabels() throws {
        let path = "transcripts/push/003-replay-returns-recorded-verdicts.json"
        let transcript = try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path).transcript
        #expect(transcript.steps.map(\.label) == ["local", "assert", "fault drop-ack", "push", "assert", "pull", "assert"])
        guard case .local(let write) = transcript.steps[0].action else {
            Issue.record("step 1 is not local")
            return
        }
        #expect(write.table == "todos")
        guard case .fault(let fault) = transcript.steps[2].action else {
            Issue.record("step 3 is not a fault")
            return
        }
        #expect(fault.fault == .dropAck)
        #expect(fault.target == .push)
        #expect(fault.request != nil)
        guard case .rpc(let exchange) = transcript.steps[3].action else {
            Issue.record("step 4 is not rpc")
            return
        }
        #expect(exchange.rpc == .push)
        #expect(exchange.request.objectValue != nil)
        #expect(exchange.response.objectValue != nil)
        guard case .assert(let checks) = transcript.steps[1].action else {
            Issue.record("step 2 is not assert")
            return
        }
        #expect(!checks.isEmpty)
    }

    @Test("push/001: local, assert, push, assert, pull, assert and its postconditions")
    func sampleShape() throws {
        let transcript = try LoadedTranscript(raw: try SharedCorpus.bytes(Self.sample), file: Self.sample).transcript
        #expect(transcript.caseID == "push/001-insert-applied")
        #expect(transcript.area == "push")
        #expect(transcript.status == "normative")
        #expect(transcript.priority == "P0")
        #expect(transcript.fencing == "shared")
        #expect(transcript.steps.map(\.label) == ["local", "assert", "push", "assert", "pull", "assert"])
        #expect(transcript.postconditions.count == 3)
        #expect(transcript.postconditions[0] == .cursor("1"))
        #expect(transcript.postconditions[1] == .outboxDepth(0))
        #expect(transcript.postconditions[1].summary == "outbox-depth = 0")
        #expect(transcript.context.schemaVersion == 1)
        #expect(transcript.context.server.tables.map(\.name) == ["todos"])
        #expect(transcript.context.server.tables[0].bucketColumn == "owner_id")
        #expect(transcript.context.server.tombstoneTTLDays == 30)
        #expect(transcript.context.server.maxPullScan == nil)
    }

    @Test("every step kind in the corpus is one of the five and labels follow the kind")
    func labelsAcrossCorpus() throws {
        var labels = Set<String>()
        for path in SharedCorpus.transcriptPaths {
            let transcript = try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path).transcript
            for step in transcript.steps { labels.insert(step.label) }
        }
        #expect(labels.isSubset(of: ["push", "pull", "server", "local", "fault drop-ack", "fault transport-error", "assert"]))
        #expect(labels.isSuperset(of: ["push", "pull", "server", "local", "assert"]))
    }

    // MARK: - grammar errors

    /// Decodes a mutated copy of the sample and returns its error.
    private func error(_ mutate: (JSONValue) -> JSONValue) throws -> CorpusError {
        let base = try SharedCorpus.value(Self.sample)
        let mutated = mutate(base)
        return try #require(corpusError { () throws(CorpusError) in try loadTranscript(mutated, file: Self.sample) }, "no error")
    }

    private func expectLocated(
        _ error: CorpusError, step: Int?, pointer: String, detail: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.file == Self.sample, sourceLocation: sourceLocation)
        #expect(error.step == step, sourceLocation: sourceLocation)
        #expect(error.pointer == JSONPointer(pointer), sourceLocation: sourceLocation)
        #expect(error.detail.contains(detail), "\(error)", sourceLocation: sourceLocation)
        let location = (step.map { "step \($0) " } ?? "") + (pointer.isEmpty ? "/" : pointer)
        #expect(error.description == "\(Self.sample): \(location): \(error.detail)", sourceLocation: sourceLocation)
        #expect(!error.isUnreadable, sourceLocation: sourceLocation)
    }

    @Test("missing key in a step names step and step pointer")
    func missingKeyInStep() throws {
        let error = try error { $0.setting("/steps/0/table", to: nil) }
        expectLocated(error, step: 1, pointer: "/steps/0", detail: "missing required key \"table\"")
    }

    @Test("missing top-level key names the root pointer and no step")
    func missingTopLevelKey() throws {
        let error = try error { $0.setting("/title", to: nil) }
        expectLocated(error, step: nil, pointer: "", detail: "missing required key \"title\"")
    }

    @Test("unknown key in a step")
    func unknownKeyInStep() throws {
        let error = try error { $0.setting("/steps/2/extra", to: true) }
        expectLocated(error, step: 3, pointer: "/steps/2/extra", detail: "unknown key \"extra\"")
    }

    @Test("unknown key in the context")
    func unknownKeyInContext() throws {
        let error = try error { $0.setting("/context/server/colour", to: "blue") }
        expectLocated(error, step: nil, pointer: "/context/server/colour", detail: "unknown key \"colour\"")
    }

    @Test("unknown step kind")
    func unknownStepKind() throws {
        let error = try error { $0.setting("/steps/1/kind", to: "sleep") }
        expectLocated(error, step: 2, pointer: "/steps/1/kind", detail: "unknown step kind \"sleep\"")
    }

    @Test("a gap in step numbers names the first step out of place")
    func gapInStepNumbers() throws {
        let error = try error { value in
            var value = value
            for index in 2..<6 { value = value.setting("/steps/\(index)/n", to: .number(JSONNumber(index + 2))) }
            return value
        }
        expectLocated(error, step: 4, pointer: "/steps/2/n", detail: "expected n=3, found n=4")
    }

    @Test("a repeated step number is refused")
    func repeatedStepNumber() throws {
        let error = try error { $0.setting("/steps/1/n", to: 1) }
        expectLocated(error, step: 1, pointer: "/steps/1/n", detail: "expected n=2, found n=1")
    }

    @Test("bad check kind in an assert step")
    func badCheckKind() throws {
        let error = try error { $0.setting("/steps/1/checks/0/check", to: "row-count") }
        expectLocated(error, step: 2, pointer: "/steps/1/checks/0/check", detail: "unknown check \"row-count\"")
    }

    @Test("unknown event in an assert step")
    func unknownEventInStep() throws {
        let error = try error { $0.setting("/steps/1/checks/0", to: ["check": "event", "event": "SOMETHING_ELSE"]) }
        expectLocated(error, step: 2, pointer: "/steps/1/checks/0/event", detail: "unknown event \"SOMETHING_ELSE\"")
    }

    @Test("unknown event in a postcondition has no step")
    func unknownEventInPostcondition() throws {
        let error = try error { $0.setting("/postconditions/0", to: ["check": "event", "event": "NOPE"]) }
        expectLocated(error, step: nil, pointer: "/postconditions/0/event", detail: "unknown event \"NOPE\"")
    }

    @Test("a known event decodes")
    func knownEvent() throws {
        let base = try SharedCorpus.value(Self.sample).setting("/postconditions/-", to: ["check": "event", "event": "DEAD_LETTER"])
        let transcript = try loadTranscript(base).transcript
        #expect(transcript.postconditions.last == .event("DEAD_LETTER"))
    }

    @Test("invalid JSON names the file and the line")
    func invalidJSON() throws {
        let text = "{\n  \"case\": \"push/001-insert-applied\",\n  \"cites\": [,]\n}\n"
        let error = try #require(corpusError { () throws(CorpusError) in try LoadedTranscript(raw: Array(text.utf8), file: "bad.json") })
        #expect(error.file == "bad.json")
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("bad.json:3: invalid JSON at column "))
    }

    @Test("a malformed case id is refused at /case")
    func malformedCaseID() throws {
        let error = try error { $0.setting("/case", to: "push/1-x") }
        expectLocated(error, step: nil, pointer: "/case", detail: "is not <flow>/<NNN>-<slug>")
    }

    @Test("isCaseID accepts the grammar and refuses the rest")
    func caseIDGrammar() {
        #expect(Transcript.isCaseID("push/001-insert-applied"))
        #expect(Transcript.isCaseID("wakeup/002-wakeup-payload"))
        #expect(!Transcript.isCaseID("push/01-x"))
        #expect(!Transcript.isCaseID("other/001-x"))
        #expect(!Transcript.isCaseID("push/001-Upper"))
        #expect(!Transcript.isCaseID("push/001-"))
    }
}
