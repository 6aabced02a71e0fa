import Corpus
import Foundation
import JSON
import ReferenceServer
import ServerContract
import Testing

/// The shared upstream corpus and scenarios file, read in place next to the package root.
enum SharedFiles {
    /// The package root: this file is <root>/Tests/ReferenceServerTests/CorpusSupport.swift.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// ../shared.
    static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// ../shared/kizunasync-protocol.
    static let corpus: URL = shared.appendingPathComponent("kizunasync-protocol")

    /// Every transcript's path relative to the corpus root, sorted.
    static let transcripts: [String] = {
        let base = corpus.appendingPathComponent("transcripts")
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let next = enumerator.nextObject() as? String {
            if next.hasSuffix(".json") { found.append("transcripts/" + next) }
        }
        return found.sorted()
    }()

    /// Reads a file's bytes.
    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Loads one transcript.
    static func transcript(_ relative: String) throws -> Transcript { try loaded(relative).transcript }

    /// Loads one transcript with its bytes.
    static func loaded(_ relative: String) throws -> LoadedTranscript {
        try LoadedTranscript(raw: try bytes(corpus.appendingPathComponent(relative)), file: relative)
    }

    /// The scenarios file (../shared/corpus-scenarios.json).
    static func scenarios() throws -> Scenarios {
        let url = shared.appendingPathComponent("corpus-scenarios.json")
        return try Scenarios(json: try JSONParser.parse(try bytes(url)), file: url.path)
    }
}
