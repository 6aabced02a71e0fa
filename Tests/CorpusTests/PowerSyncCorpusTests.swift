import Corpus
import Foundation
import JSON
import PowerSyncWire
import Testing

/// The PowerSync transcript grammar and corpus loader, over Conformance/powersync.
@Suite("PowerSync transcripts and corpora")
struct PowerSyncCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Conformance/powersync").path

    /// Conformance/powersync as in-memory files.
    static func files() throws -> MemoryFiles {
        var files: [String: [UInt8]] = [:]
        for path in ["cases/manifest.json"]
            + (try FileManager.default.contentsOfDirectory(atPath: root + "/transcripts")).map({ "transcripts/" + $0 })
        {
            files[path] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
        }
        return MemoryFiles(root: "ps", files: files)
    }

    static func transcript(_ files: MemoryFiles, _ slug: String) throws -> JSONValue { try files.json("transcripts/\(slug).json") }

    @Test("the PowerSync corpus loads in manifest order and its manifest declares the profile")
    func loads() throws {
        let files = try Self.files()
        let corpus = try PowerSync.Corpus(files: files)
        #expect(corpus.cases.count == 26)
        #expect(corpus.cases.first?.transcript.caseID == "powersync/001-initial-sync-completes")
        #expect(try CorpusProfile.of(folder: files) == .powerSync)
        let steps = corpus.cases[6].transcript.steps
        #expect(steps.map(\.label).prefix(4) == ["source", "checkpoint-request", "request-checkpoint", "checkpoint-request"])
        #expect(steps.map(\.reconcile).prefix(4) == [false, true, false, false])
        #expect(corpus.cases[6].transcript.checkpointMode == .requests && corpus.cases[0].transcript.checkpointMode == .legacy)
    }

    @Test("a profile that is not known, a step kind outside the three, and non-dense steps are errors naming file, step and pointer")
    func grammarErrors() throws {
        var files = try Self.files()
        let slug = "001-initial-sync-completes"
        let original = try Self.transcript(files, slug)
        let unknown = corpusError { () throws(CorpusError) in
            try CorpusProfile.of(original.setting("/profile", to: "firebase"), file: "t.json")
        }
        #expect(unknown?.pointer?.description == "/profile")
        let kind = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: original.setting("/steps/1/kind", to: "sync"), file: "t.json")
        }
        #expect(kind?.step == 2 && kind?.pointer?.description == "/steps/1/kind")
        let empty = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: original.setting("/steps/1/lines", to: []), file: "t.json")
        }
        #expect(empty?.pointer?.description == "/steps/1/lines")
        let caseID = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: original.setting("/case", to: "push/001-x"), file: "t.json")
        }
        #expect(caseID?.pointer?.description == "/case")
        files.set("transcripts/\(slug).json", original.setting("/title", to: "another title"))
        let title = corpusError { () throws(CorpusError) in try PowerSync.Corpus(files: files) }
        #expect(title?.pointer?.description == "/cases/0/title")
    }

    @Test("every transcript has one manifest entry, and every entry an existing transcript")
    func bijection() throws {
        var files = try Self.files()
        files.files["transcripts/999-stray.json"] = files.files["transcripts/001-initial-sync-completes.json"]
        #expect(corpusError { () throws(CorpusError) in try PowerSync.Corpus(files: files) }?.file == "ps/transcripts/999-stray.json")
        files = try Self.files()
        files.files["transcripts/001-initial-sync-completes.json"] = nil
        #expect(corpusError { () throws(CorpusError) in try PowerSync.Corpus(files: files) }?.pointer?.description == "/cases/0/file")
    }

    @Test("a manifest without a profile is KizunaSync's")
    func defaultProfile() throws {
        #expect(try CorpusProfile.of(["cases": []], file: "m.json") == .kizunaSync)
    }

    @Test("the KizunaSync loader refuses a PowerSync transcript by its profile, so convert and replay say why")
    func kizunaSyncLoaderRefuses() throws {
        let files = try Self.files()
        let bytes = try #require(files.files["transcripts/001-initial-sync-completes.json"])
        let error = corpusError { () throws(CorpusError) in try LoadedTranscript(raw: bytes, file: "t.json") }
        #expect(error?.pointer?.description == "/profile" && error?.detail.contains("PowerSync") == true)
    }

    @Test("source steps: an unknown change, a during that names no open stream, and a line past the stream's end name step and pointer")
    func sourceGrammarErrors() throws {
        let files = try Self.files()
        let diff = try Self.transcript(files, "005-diff-follows-its-checkpoint")
        let loaded = try PowerSync.Transcript(json: diff, file: "t.json")
        #expect(loaded.steps.map(\.label) == ["source", "sync-stream", "source"])
        #expect(loaded.steps[2].during == StreamMoment(step: 2, afterLine: 4))
        let change = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: diff.setting("/steps/0/changes/0", to: ["upsert": ["bucket": "b"]]), file: "t.json")
        }
        #expect(change?.step == 1 && change?.pointer?.description == "/steps/0/changes/0")
        let step = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: diff.setting("/steps/2/during/step", to: 1), file: "t.json")
        }
        #expect(step?.step == 3 && step?.pointer?.description == "/steps/2/during/step")
        let line = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: diff.setting("/steps/2/during/after_line", to: 9), file: "t.json")
        }
        #expect(line?.step == 3 && line?.pointer?.description == "/steps/2/during/after_line")
        let paged = try PowerSync.Transcript(json: try Self.transcript(files, "002-paged-data-chains-and-resumes"), file: "t.json")
        #expect(paged.service.dataPageOps == 2)
    }
}
