import Corpus
import JSON
import PowerSyncWire

/// `accord convert` as a pure function of bytes: recordings, transcripts and HAR 1.2 files turned
/// into one another, through the recording as the common form (transcript → recording → HAR and
/// back). The caller reads and writes the files.
public enum FormatConversion {
    /// A file format.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// An accord recording (JSON Lines).
        case recording
        /// A corpus transcript (canonical JSON).
        case transcript
        /// A HAR 1.2 log.
        case har

        /// The format a file name implies: `.jsonl`/`.ndjson` recording, `.har` HAR, `.json`
        /// transcript; nil for anything else.
        /// - Parameter path: the file name.
        /// - Returns: the format, or nil.
        public static func of(path: String) -> Format? {
            let lower = path.lowercased()
            if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .recording }
            if lower.hasSuffix(".har") { return .har }
            if lower.hasSuffix(".json") { return .transcript }
            return nil
        }
    }

    /// A conversion's output and what it had to leave out.
    public struct Output: Sendable, Hashable {
        /// The bytes to write.
        public var bytes: [UInt8]
        /// One line per step or exchange left out, for the user.
        public var notes: [String]
    }

    /// Converts a file's bytes.
    /// - Parameters:
    ///   - bytes: the input file.
    ///   - file: its name, for messages.
    ///   - from: its format.
    ///   - to: the output format.
    ///   - tool: the tool named in headers it writes, e.g. "accord 0.1.0".
    ///   - caseID: the case id of a transcript it writes.
    /// - Returns: the output bytes and notes.
    /// - Throws: `CorpusError` for input that is not valid in its format.
    public static func convert(_ bytes: [UInt8], file: String, from: Format, to: Format, tool: String, caseID: String) throws(CorpusError)
        -> Output
    {
        var notes: [String] = []
        // A HAR is redacted as it is read (its headers before they are merged); every format is
        // redacted again, idempotently, on the way out.
        let recording: RecordingContents
        switch from {
        case .recording:
            recording = try RecordingContents(bytes: bytes, file: file)
        case .transcript:
            let loaded = try LoadedTranscript(raw: bytes, file: file)
            let result = TranscriptToRecording.convert(loaded.transcript, tool: tool)
            notes += result.omittedSteps.map { "step \($0.n) \($0.label): not an rpc step, not recorded" }
            recording = result.recording
        case .har:
            let json: JSONValue
            do { json = try JSONParser.parse(bytes) } catch { throw CorpusError.invalidJSON(file, error) }
            let redactor = Redactor(policy: HARImport.policy(of: json), continuingAfter: bytes)
            recording = try HARImport.recording(from: json, file: file, tool: tool, redactor: redactor)
        }
        var output = try convert(recording, file: file, to: to, tool: tool, caseID: caseID)
        output.notes = notes + output.notes
        return output
    }

    /// Converts a recording already read (e.g. streamed line by line from its file).
    /// - Parameters:
    ///   - recording: the recording.
    ///   - file: its name, for messages.
    ///   - to: the output format.
    ///   - tool: the tool named in headers it writes, e.g. "accord 0.1.0".
    ///   - caseID: the case id of a transcript it writes.
    /// - Returns: the output bytes and notes.
    /// - Throws: `CorpusError` when the transcript written would not be valid.
    public static func convert(
        _ recording: RecordingContents, file: String, to: Format, tool: String, caseID: String,
        world: ((RecordingContents) -> RecordedWorld)? = nil
    ) throws(CorpusError) -> Output {
        var notes: [String] = []
        if let torn = recording.tornLine { notes.append("torn last line \(torn) ignored") }
        // Every direction passes the recorder's redactor, under the policy the recording states:
        // a file from a browser, an older build or a hand edit leaves redacted as `accord record`
        // would have left it.
        let recording = Redactor(policy: RedactionPolicy(recorded: recording.header.redaction), continuingAfter: recording.bytes)
            .recording(recording)
        switch to {
        case .recording:
            return Output(bytes: recording.bytes, notes: notes)
        case .har:
            return Output(bytes: CanonicalJSON.render(HARExport.har(from: recording, creatorVersion: tool)), notes: notes)
        case .transcript where PowerSync.RecordingToTranscript.isPowerSync(recording):
            let id = PowerSync.RecordingToTranscript.caseID(caseID)
            let result = PowerSync.RecordingToTranscript.convert(recording, caseID: id)
            let rendered = CanonicalJSON.render(result.json)
            _ = try PowerSync.LoadedTranscript(raw: rendered, json: result.json, file: file)
            return Output(bytes: rendered, notes: notes + result.notes)
        case .transcript:
            // The world is inferred from the redacted recording, so no secret reaches a server step.
            let inferred = world?(recording)
            let result = RecordingToTranscript.convert(
                recording, options: RecordingToTranscript.Options(caseID: caseID, writes: true, world: inferred))
            if !result.worldOfStep.isEmpty { notes.append("\(result.worldOfStep.count) server steps inferred from the recording") }
            notes += result.omitted.map { "exchange \($0.exchange): \($0.reason)" }
            let others = Set(recording.sessions.dropFirst())
            if !others.isEmpty { notes.append("\(others.count) other session(s) kept as rpc steps with a caller") }
            let rendered = CanonicalJSON.render(result.json)
            _ = try LoadedTranscript(raw: rendered, file: file)
            return Output(bytes: rendered, notes: notes)
        }
    }
}
