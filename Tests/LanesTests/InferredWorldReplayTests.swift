import Corpus
import Foundation
import Harness
import JSON
import KizunaWire
import Lanes
import ReferenceServer
import Reports
import ServerContract
import Testing

/// Every shared-corpus case turned into a recording loses its server steps (another actor's
/// writes have no wire form). Inferring the world from the recording alone must give them back:
/// each recording replays green on a fresh reference server, and the world holds exactly as many
/// changes as the transcript had server steps (a case whose setup comes from the scenarios file
/// also has history and reaps there, so it is only replayed). The fencing cases' held transactions
/// leave holes in their cursors, which no recording can reopen: those answers are not inferable.
@Suite("Replay: the world inferred from corpus recordings")
struct InferredWorldReplayTests {
    static let scenarioCases: Set<String> = {
        let path = RunnerFixtures.packageRoot + "/../shared/corpus-scenarios.json"
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
            let json = try? JSONParser.parse([UInt8](data)), let cases = json["cases"]?.objectValue
        else { return [] }
        return Set(cases.keys)
    }()

    @Test("each shared case's recording replays green, its server steps inferred one for one")
    func everyCase() async throws {
        var checked = 0
        for item in try Corpus(files: FolderFiles(root: RunnerFixtures.sharedCorpus)).cases {
            guard case .transcript(let loaded, _) = item else { continue }
            let transcript = loaded.transcript
            let recording = TranscriptToRecording.convert(transcript, tool: "accord-test").recording
            let serverSteps = transcript.steps.filter { step in
                switch step.action {
                case .server, .reap: true
                default: false
                }
            }
            let world = RecordingReplay.world(of: recording)
            if !Self.scenarioCases.contains(transcript.caseID) {
                #expect(world.count == serverSteps.count, "\(transcript.caseID): \(world.history) \(world.changes)")
            }
            let suite = await RecordingReplay().run(
                recording, file: transcript.caseID + ".jsonl",
                makeTarget: { () throws(TargetError) -> any KizunaSync.ServerTarget in
                    do { return try ReferenceServer() } catch { throw TargetError.refused("\(error)") }
                }, properties: [])
            let bad = suite.cases.filter { result in
                switch result.outcome {
                case .failed, .errored: true
                // A cursor with holes (a transaction held open on the recorded service) is the one
                // thing a recording cannot give back: the fencing cases say so, and nothing else may.
                case .skipped(let reason): reason.hasPrefix("not inferable") && !reason.contains("holes")
                default: false
                }
            }
            #expect(bad.isEmpty, "\(transcript.caseID): \(bad)")
            checked += 1
        }
        #expect(checked >= 38)
    }
}
