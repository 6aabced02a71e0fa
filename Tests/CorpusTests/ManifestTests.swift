import Corpus
import Foundation
import JSON
import Testing

@Suite("Manifest")
struct ManifestTests {
    static let file = "cases/manifest.json"

    private func manifest(_ value: JSONValue) throws(CorpusError) -> Manifest {
        try Manifest(json: value, file: Self.file)
    }

    @Test("the shared manifest registers 41 cases, one of them blocked")
    func sharedManifest() throws {
        let manifest = try manifest(try SharedCorpus.value(Self.file))
        #expect(manifest.entries.count == 41)
        #expect(manifest.entries.map(\.index) == Array(0..<41))
        #expect(Set(manifest.entries.map(\.id)).count == 41)
        let blocked = manifest.entries.filter { $0.file == nil }
        #expect(blocked.map(\.id) == ["wakeup/002-wakeup-payload"])
        #expect((blocked.first?.blockedOn ?? []).count > 0)
        for entry in manifest.entries where entry.file != nil {
            #expect(entry.file == "transcripts/\(entry.id).json")
            #expect(entry.blockedOn == nil)
            #expect(!entry.cites.isEmpty)
        }
        let files = Set(manifest.entries.compactMap(\.file))
        #expect(files == Set(SharedCorpus.transcriptPaths))
    }

    @Test("an entry without the file key is refused at its pointer")
    func missingFileKey() throws {
        let value = try SharedCorpus.value(Self.file).setting("/cases/3/file", to: nil)
        let error = try #require(corpusError { () throws(CorpusError) in try manifest(value) })
        #expect(error.pointer == JSONPointer("/cases/3"))
        #expect(error.description == "\(Self.file): /cases/3: missing required key \"file\"")
    }

    @Test("an unknown key in an entry is refused")
    func unknownKey() throws {
        let value = try SharedCorpus.value(Self.file).setting("/cases/0/owner", to: "me")
        let error = try #require(corpusError { () throws(CorpusError) in try manifest(value) })
        #expect(error.description == "\(Self.file): /cases/0/owner: unknown key \"owner\"")
    }

    @Test("a malformed case id is refused")
    func badID() throws {
        let value = try SharedCorpus.value(Self.file).setting("/cases/0/id", to: "conflict/1")
        let error = try #require(corpusError { () throws(CorpusError) in try manifest(value) })
        #expect(error.pointer == JSONPointer("/cases/0/id"))
        #expect(error.detail.contains("is not <flow>/<NNN>-<slug>"))
    }

    @Test("a missing future_flows key is refused at the root")
    func missingFutureFlows() throws {
        let value = try SharedCorpus.value(Self.file).setting("/future_flows", to: nil)
        let error = try #require(corpusError { () throws(CorpusError) in try manifest(value) })
        #expect(error.description == "\(Self.file): /: missing required key \"future_flows\"")
    }
}
