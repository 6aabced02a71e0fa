import Corpus
import Foundation
import KizunaWire
import Reports

extension CheckRun {
    /// What a transcript file given to `accord check` is, by its `profile`.
    enum TranscriptFile {
        case kizunaSync(LoadedTranscript)
        case powerSync(LoadedPowerSyncTranscript)

        var caseID: String {
            switch self {
            case .kizunaSync(let loaded): loaded.transcript.caseID
            case .powerSync(let loaded): loaded.transcript.caseID
            }
        }
    }

    /// Reads a transcript file and chooses its profile from its `profile` member.
    /// - Parameters:
    ///   - path: the file.
    ///   - maxLine: the largest file read.
    /// - Returns: the loaded transcript.
    /// - Throws: `CorpusError` for an unreadable file, invalid JSON or a grammar violation.
    static func transcriptFile(_ path: String, maxLine: Int) throws(CorpusError) -> TranscriptFile {
        let raw = try FileBytes.read(path, limit: maxLine)
        let json: JSONValue
        do { json = try JSONParser.parse(raw) } catch { throw CorpusError.invalidJSON(path, error) }
        switch try CorpusProfile.of(json, file: path) {
        case .powerSync: return .powerSync(try LoadedPowerSyncTranscript(raw: raw, json: json, file: path))
        case .kizunaSync: return .kizunaSync(try LoadedTranscript(raw: raw, file: path))
        }
    }

    /// The suites of a PowerSync corpus folder's cases that the filter selects.
    /// - Parameters:
    ///   - path: the folder.
    ///   - maxLine: the largest file read.
    ///   - filter: the case-id glob.
    /// - Returns: the suites, timed.
    /// - Throws: `RunError` for a folder that breaks its grammar.
    static func powerSyncCorpusSuites(_ path: String, maxLine: Int, filter: String?) throws(RunError) -> [SuiteResult] {
        let corpus: PowerSyncCorpus
        do throws(CorpusError) { corpus = try PowerSyncCorpus(files: FolderFiles(root: path, limit: maxLine)) } catch {
            throw RunError.input(error)
        }
        return corpus.cases.filter { CaseSource.matches($0.transcript.caseID, filter) }.map { loaded in
            let started = ContinuousClock.now
            var suite = PowerSyncTranscriptCheck.suite(loaded, properties: properties(target: "offline", corpus: path))
            suite.time = RunClock.seconds(since: started)
            return suite
        }
    }
}
