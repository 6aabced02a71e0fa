import Corpus
import JSON

extension RecordingToPowerSyncTranscript {
    /// A PowerSync recording as the live lanes replay it: passed through the recorder's redactor
    /// under the policy it states (as every conversion is), converted to the in-memory transcript
    /// (its fixture calls as source steps), and loaded as a transcript file would be, with the
    /// client lane's reading of it (`PowerSyncTranscript.recordedClient`) beside it. The lanes
    /// then play it exactly as they play a transcript.
    /// - Parameters:
    ///   - recording: the recording as read.
    ///   - file: its file, for the case id and errors.
    /// - Returns: the loaded transcript and the notes of what was left out.
    /// - Throws: `CorpusError` when the converted transcript breaks the grammar.
    public static func replay(_ recording: RecordingContents, file: String) throws(CorpusError) -> (
        loaded: LoadedPowerSyncTranscript, notes: [String]
    ) {
        let redacted = Redactor(policy: RedactionPolicy(recorded: recording.header.redaction), continuingAfter: recording.bytes)
            .recording(recording)
        let result = convert(redacted, caseID: caseID(RecordingToTranscript.caseID(for: file)))
        var loaded = try LoadedPowerSyncTranscript(raw: CanonicalJSON.render(result.json), json: result.json, file: file)
        loaded.clientPlay = loaded.transcript.recordedClient
        return (loaded, result.notes)
    }
}
