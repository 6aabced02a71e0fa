import Capture
import Corpus
import Foundation
import JSON
import Testing

/// `accord convert` as pure functions: transcripts, recordings and HAR round trips.
@Suite("Convert: round trips between transcripts, recordings and HAR")
struct ConvertRoundTripTests {
    static let cases = [
        "transcripts/push/008-composite-key-writes.json", "transcripts/pull/002-keyset-pagination.json",
        "transcripts/push/003-replay-returns-recorded-verdicts.json", "transcripts/conflict/003-hlc-origin-order.json",
    ]

    static func transcript(_ path: String) throws -> LoadedTranscript {
        try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path)
    }

    static func rpcSteps(_ transcript: Transcript) -> [RPCExchange] {
        transcript.steps.compactMap { step in
            if case .rpc(let rpc) = step.action { return rpc }
            return nil
        }
    }

    @Test("transcript → recording → transcript keeps every rpc step's request, response and status", arguments: cases)
    func transcriptRoundTrip(path: String) throws {
        let original = try Self.transcript(path).transcript
        let recording = TranscriptToRecording.convert(original, tool: "accord-test").recording
        let back = RecordingToTranscript.convert(recording, options: RecordingToTranscript.Options(caseID: "lifecycle/001-back"))
        let reloaded = try LoadedTranscript(raw: CanonicalJSON.render(back.json), file: "back.json").transcript
        #expect(Self.rpcSteps(reloaded) == Self.rpcSteps(original))
        #expect(reloaded.context.userID == original.context.userID)
        #expect(reloaded.context.clientID == original.context.clientID)
        #expect(back.omitted.isEmpty)
    }

    @Test("recording → HAR → recording gives back the same bytes", arguments: cases)
    func harRoundTrip(path: String) throws {
        let recording = TranscriptToRecording.convert(try Self.transcript(path).transcript, tool: "accord-test").recording
        let har = HARExport.har(from: recording, creatorVersion: "accord-test")
        #expect(har["log"]?["version"] == "1.2")
        let back = try HARImport.recording(from: har, file: "x.har", tool: "accord-test")
        #expect(back.bytes == recording.bytes)
    }

    @Test(
        "a HAR time or _accord.at_ms no recording can hold is refused at its pointer",
        arguments: [("/log/entries/0/time", "1e400"), ("/log/entries/0/_accord/at_ms", "-1e400"), ("/log/entries/0/time", "1e16")])
    func harMillisecondsOutOfRange(pointer: String, literal: String) throws {
        let recording = TranscriptToRecording.convert(try Self.transcript(Self.cases[0]).transcript, tool: "accord-test").recording
        let har = HARExport.har(from: recording, creatorVersion: "accord-test")
        let bad = har.setting(pointer, to: .number(JSONNumber(literal: literal)))
        #expect(throws: CorpusError.self) { try HARImport.recording(from: bad, file: "x.har", tool: "accord-test") }
        do {
            _ = try HARImport.recording(from: bad, file: "x.har", tool: "accord-test")
        } catch {
            #expect(error.pointer == JSONPointer(pointer))
            #expect(
                error.description == "x.har: \(pointer): expected a number of milliseconds of at most 9e15 in magnitude, found \(literal)")
        }
    }

    @Test(
        "an at_ms past year 9999 or before 1582 gives a valid ISO 8601 startedDateTime, and _accord keeps the exact value",
        arguments: [(9e15, "9999-12-31T23:59:59.999Z"), (-9e15, "1582-10-15T00:00:00.000Z"), (1500, "2026-11-30T00:00:01.500Z")])
    func harTimeOutsideISOYears(milliseconds: Double, started: String) throws {
        var recording = TranscriptToRecording.convert(try Self.transcript(Self.cases[0]).transcript, tool: "accord-test").recording
        recording.header.startedAt = "2026-11-30T00:00:00Z"
        recording.exchanges[0].atMilliseconds = milliseconds
        let har = HARExport.har(from: recording, creatorVersion: "accord-test")
        #expect(har["log"]?["entries"]?.arrayValue?.first?["startedDateTime"] == .string(started))
        let back = try HARImport.recording(from: har, file: "x.har", tool: "accord-test")
        #expect(back.exchanges[0].atMilliseconds == milliseconds)
    }

    @Test("recording bytes read back to the same recording")
    func recordingBytesRoundTrip() throws {
        let recording = TranscriptToRecording.convert(try Self.transcript(Self.cases[0]).transcript, tool: "t").recording
        let read = try RecordingContents(bytes: recording.bytes, file: "r.jsonl")
        #expect(read.bytes == recording.bytes)
        #expect(read.exchanges.map(\.number) == [4, 6, 9, 10])
    }

    @Test("a drop-ack fault becomes a status-0 exchange and comes back as a drop-ack fault step")
    func dropAckRoundTrip() throws {
        let path = "transcripts/push/003-replay-returns-recorded-verdicts.json"
        let original = try Self.transcript(path).transcript
        let recording = TranscriptToRecording.convert(original, tool: "t").recording
        let faults = original.steps.filter { if case .fault(let f) = $0.action { return f.fault == .dropAck } else { return false } }
        #expect(recording.exchanges.filter { $0.status == TranscriptToRecording.lostAnswer }.count == faults.count)
        let back = RecordingToTranscript.convert(recording)
        let kinds = back.json["steps"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
        #expect(kinds.filter { $0 == "fault" }.count == faults.count)
    }

    @Test("with writes, each pushed mutation becomes one local step just before the first push carrying it")
    func writesPrecedeTheirPush() throws {
        let original = try Self.transcript(Self.cases[0]).transcript
        let recording = TranscriptToRecording.convert(original, tool: "t").recording
        let result = RecordingToTranscript.convert(recording, options: RecordingToTranscript.Options(writes: true))
        let steps = result.json["steps"]?.arrayValue ?? []
        #expect(steps.map { $0["kind"]?.stringValue ?? "" } == ["local", "local", "rpc", "rpc", "local", "rpc", "rpc"])
        #expect(result.writeOfStep == [1: 4, 2: 4, 5: 9])
        #expect(result.exchangeOfStep == [3: 4, 4: 6, 6: 9, 7: 10])
        let reloaded = try LoadedTranscript(raw: CanonicalJSON.render(result.json), file: "w.json").transcript
        guard case .local(let write) = reloaded.steps[0].action else {
            Issue.record("step 1 is not a local write")
            return
        }
        #expect(write.mutationID == "00000000-0000-4000-8000-f10000000001")
        #expect(write.table == "seats")
    }

    @Test("convert picks formats by extension and refuses nothing valid")
    func formatsByExtension() throws {
        #expect(FormatConversion.Format.of(path: "a/b.JSONL") == .recording)
        #expect(FormatConversion.Format.of(path: "b.ndjson") == .recording)
        #expect(FormatConversion.Format.of(path: "b.har") == .har)
        #expect(FormatConversion.Format.of(path: "b.json") == .transcript)
        #expect(FormatConversion.Format.of(path: "b.txt") == nil)
        let bytes = try SharedCorpus.bytes(Self.cases[0])
        let har = try FormatConversion.convert(bytes, file: "t.json", from: .transcript, to: .har, tool: "t", caseID: "push/001-x")
        let transcript = try FormatConversion.convert(
            har.bytes, file: "t.har", from: .har, to: .transcript, tool: "t", caseID: "push/001-x")
        let reloaded = try LoadedTranscript(raw: transcript.bytes, file: "t.json").transcript
        #expect(reloaded.caseID == "push/001-x")
        #expect(Self.rpcSteps(reloaded) == Self.rpcSteps(try Self.transcript(Self.cases[0]).transcript))
        #expect(transcript.bytes == CanonicalJSON.render(try JSONParser.parse(transcript.bytes)))
    }

    @Test("a case id is made from a file name")
    func caseIDFromFileName() {
        #expect(RecordingToTranscript.caseID(for: "/tmp/My Session_2.jsonl") == "lifecycle/001-recording-my-session-2")
        #expect(RecordingToTranscript.caseID(for: "---.jsonl", index: 12) == "lifecycle/012-recording")
        #expect(Transcript.isCaseID(RecordingToTranscript.caseID(for: "x.y.z.json")))
    }
}
