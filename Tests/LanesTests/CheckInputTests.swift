import Corpus
import Foundation
import Harness
import JSON
import Lanes
import Testing

/// `CheckInput.classify`: what a path given to `accord check` is, judged by what is on disk.
@Suite("CheckInput classifies paths")
struct CheckInputTests {
    private static let header = RecordingHeader(
        tool: "accord-test", startedAt: "2026-11-30T00:00:00Z", upstream: "http://127.0.0.1:1", redaction: ["policy": "default"])

    @Test("a corpus folder is a corpus")
    func corpusFolder() throws {
        let path = RunnerFixtures.sharedCorpus
        guard case .corpus(let classified) = try CheckInput.classify(path) else {
            Issue.record("\(path) is not classified as a corpus")
            return
        }
        #expect(classified == path)
    }

    @Test("a corpus folder with a trailing slash is a corpus")
    func corpusFolderWithSlash() throws {
        let path = RunnerFixtures.sharedCorpus + "/"
        guard case .corpus(let classified) = try CheckInput.classify(path) else {
            Issue.record("\(path) is not classified as a corpus")
            return
        }
        #expect(classified == path)
    }

    @Test("a transcript .json is a transcript")
    func transcriptFile() throws {
        let path = RunnerFixtures.transcriptPath("push/001-insert-applied")
        guard case .transcript(let classified) = try CheckInput.classify(path) else {
            Issue.record("\(path) is not classified as a transcript")
            return
        }
        #expect(classified == path)
    }

    @Test("a recording .jsonl is a recording")
    func recordingJSONL() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/session.jsonl"
            try Data((CanonicalJSON.compact(Self.header.json) + "\n").utf8).write(to: URL(fileURLWithPath: path))
            guard case .recording(let classified) = try CheckInput.classify(path) else {
                Issue.record("\(path) is not classified as a recording")
                return
            }
            #expect(classified == path)
        }
    }

    @Test("a recording named .json is sniffed as a recording")
    func recordingNamedJSON() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/session.json"
            try Data((CanonicalJSON.compact(Self.header.json) + "\n").utf8).write(to: URL(fileURLWithPath: path))
            guard case .recording(let classified) = try CheckInput.classify(path) else {
                Issue.record("\(path) is not sniffed as a recording")
                return
            }
            #expect(classified == path)
        }
    }

    @Test("a folder without cases/manifest.json is refused, naming the manifest")
    func folderWithoutManifest() throws {
        try withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/transcripts", withIntermediateDirectories: true)
            let error = try requireRunError { _ = try CheckInput.classify(folder) }
            #expect(error.description.contains(folder + "/cases/manifest.json"), "\(error)")
            #expect(error.description.contains("corpus folder has cases/manifest.json"), "\(error)")
        }
    }

    @Test("a missing path is a RunError naming the path")
    func missingPath() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/absent.json"
            let error = try requireRunError { _ = try CheckInput.classify(path) }
            #expect(error.description.hasPrefix(path + ": "), "\(error)")
            #expect(error.description.contains("no such file"), "\(error)")
            #expect(!error.description.contains("\n"), "one line: \(error)")
        }
    }
}
