import Corpus
import Foundation
import JSON
import Testing

@Suite("Corpus loader and the manifest bijection (I-12)")
struct CorpusLoaderTests {
    static let manifestPath = "cases/manifest.json"
    static let sampleID = "push/001-insert-applied"
    static let samplePath = "transcripts/push/001-insert-applied.json"
    static let blockedID = "wakeup/002-wakeup-payload"

    /// The manifest index of a case id.
    private func index(of id: String, in files: MemoryFiles) throws -> Int {
        let cases = try #require(try files.json(Self.manifestPath)["cases"]?.arrayValue)
        return try #require(cases.firstIndex { $0["id"]?.stringValue == id }, "no entry \(id)")
    }

    /// Loads `files` and returns the error, which must be an I-12 error.
    private func i12Error(_ files: MemoryFiles, sourceLocation: SourceLocation = #_sourceLocation) throws -> CorpusError {
        let error = try #require(corpusError { () throws(CorpusError) in try Corpus(files: files) }, sourceLocation: sourceLocation)
        #expect(error.description.contains("(I-12)"), "\(error)", sourceLocation: sourceLocation)
        return error
    }

    @Test("the shared corpus loads: 40 transcript cases and 1 blocked case")
    func sharedCorpusLoads() throws {
        let files = try SharedCorpus.memoryFiles()
        let corpus = try Corpus(files: files)
        #expect(corpus.root == "mem")
        #expect(corpus.cases.count == 41)
        var transcripts = 0
        var blocked: [String] = []
        for item in corpus.cases {
            switch item {
            case .transcript(let loaded, let entry):
                transcripts += 1
                #expect(entry?.id == loaded.transcript.caseID)
                #expect(entry?.title == loaded.transcript.title)
                #expect(loaded.file == "mem/transcripts/\(loaded.transcript.caseID).json")
            case .blocked(let entry):
                blocked.append(entry.id)
                #expect(entry.file == nil)
                #expect((entry.blockedOn ?? []).count > 0)
            }
        }
        #expect(transcripts == 40)
        #expect(blocked == [Self.blockedID])
        let manifestIDs = try #require(try files.json(Self.manifestPath)["cases"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(corpus.cases.map(\.id) == manifestIDs)
    }

    @Test("an entry naming a missing transcript")
    func entryNamesMissingFile() throws {
        var files = try SharedCorpus.memoryFiles()
        files.files[Self.samplePath] = nil
        let at = try index(of: Self.sampleID, in: files)
        let error = try i12Error(files)
        #expect(error.file == "mem/cases/manifest.json")
        #expect(error.pointer == JSONPointer("/cases/\(at)/file"))
        #expect(error.detail.contains("names a missing transcript \(Self.samplePath)"))
    }

    @Test("a transcript without a manifest entry")
    func transcriptWithoutEntry() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.sampleID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)", to: nil))
        let error = try i12Error(files)
        #expect(error.file == "mem/\(Self.samplePath)")
        #expect(error.detail.contains("transcript has no manifest entry"))
    }

    @Test("an extra transcript file without an entry")
    func extraTranscript() throws {
        var files = try SharedCorpus.memoryFiles()
        let copy = try files.json(Self.samplePath).setting("/case", to: "push/099-extra")
        files.set("transcripts/push/099-extra.json", copy)
        let error = try i12Error(files)
        #expect(error.file == "mem/transcripts/push/099-extra.json")
    }

    @Test("a duplicate case id")
    func duplicateID() throws {
        var files = try SharedCorpus.memoryFiles()
        let manifest = try files.json(Self.manifestPath)
        let cases = try #require(manifest["cases"]?.arrayValue)
        files.set(Self.manifestPath, manifest.setting("/cases/-", to: cases[0]))
        let error = try i12Error(files)
        #expect(error.file == "mem/cases/manifest.json")
        #expect(error.pointer == JSONPointer("/cases/\(cases.count)"))
        #expect(error.detail.contains("duplicate case id"))
    }

    @Test("a blocked entry without blocked_on")
    func blockedWithoutBlockedOn() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.blockedID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)/blocked_on", to: nil))
        let error = try i12Error(files)
        #expect(error.pointer == JSONPointer("/cases/\(at)"))
        #expect(error.detail.contains("needs a non-empty blocked_on"))
    }

    @Test("a blocked entry with an empty blocked_on")
    func blockedWithEmptyBlockedOn() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.blockedID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)/blocked_on", to: []))
        let error = try i12Error(files)
        #expect(error.detail.contains("needs a non-empty blocked_on"))
    }

    @Test("an entry with a transcript and blocked_on")
    func transcriptEntryWithBlockedOn() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.sampleID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)/blocked_on", to: ["D-x"]))
        let error = try i12Error(files)
        #expect(error.pointer == JSONPointer("/cases/\(at)/blocked_on"))
    }

    @Test("a title that differs from the transcript's")
    func titleMismatch() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.sampleID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)/title", to: "another title"))
        let error = try i12Error(files)
        #expect(error.file == "mem/cases/manifest.json")
        #expect(error.pointer == JSONPointer("/cases/\(at)/title"))
        #expect(error.detail.contains("title"))
        #expect(error.description == "mem/cases/manifest.json: /cases/\(at)/title: \(error.detail)")
    }

    @Test("a priority that differs from the transcript's")
    func priorityMismatch() throws {
        var files = try SharedCorpus.memoryFiles()
        let at = try index(of: Self.sampleID, in: files)
        files.set(Self.manifestPath, try files.json(Self.manifestPath).setting("/cases/\(at)/priority", to: "P2"))
        let error = try i12Error(files)
        #expect(error.pointer == JSONPointer("/cases/\(at)/priority"))
    }

    @Test("a transcript whose case differs from its entry id")
    func caseMismatch() throws {
        var files = try SharedCorpus.memoryFiles()
        files.set(Self.samplePath, try files.json(Self.samplePath).setting("/case", to: "push/001-other-name"))
        let error = try i12Error(files)
        #expect(error.file == "mem/\(Self.samplePath)")
        #expect(error.pointer == JSONPointer("/case"))
    }

    @Test("a missing manifest is an unreadable-file error")
    func missingManifest() throws {
        var files = try SharedCorpus.memoryFiles()
        files.files[Self.manifestPath] = nil
        let error = try #require(corpusError { () throws(CorpusError) in try Corpus(files: files) })
        #expect(error.isUnreadable)
        #expect(error.file == "mem/cases/manifest.json")
    }

    @Test("a manifest that is not JSON names file and line")
    func manifestInvalidJSON() throws {
        var files = try SharedCorpus.memoryFiles()
        files.files[Self.manifestPath] = Array("{\n  \"cases\": [\n    oops\n".utf8)
        let error = try #require(corpusError { () throws(CorpusError) in try Corpus(files: files) })
        #expect(error.file == "mem/cases/manifest.json")
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("mem/cases/manifest.json:3: invalid JSON"))
    }

    @Test("a grammar error inside a corpus transcript names that transcript")
    func transcriptGrammarInCorpus() throws {
        var files = try SharedCorpus.memoryFiles()
        files.set(Self.samplePath, try files.json(Self.samplePath).setting("/steps/1/kind", to: "sleep"))
        let error = try #require(corpusError { () throws(CorpusError) in try Corpus(files: files) })
        #expect(error.description.hasPrefix("mem/\(Self.samplePath): step 2 /steps/1/kind: unknown step kind"))
    }
}
