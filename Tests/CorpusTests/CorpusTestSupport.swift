import Corpus
import Foundation
import JSON
import Testing

/// Locates the shared upstream corpus (../shared/kizunasync-protocol next to the package root)
/// and reads it in place; nothing is ever copied into the repository.
enum SharedCorpus {
    /// The package root: this file is <root>/Tests/CorpusTests/CorpusTestSupport.swift.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CorpusTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// The shared protocol corpus.
    static let root: URL =
        packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared")
        .appendingPathComponent("kizunasync-protocol")

    /// Every `.json` file under `directory` (root-relative, sorted), or [] when absent.
    static func jsonFiles(under directory: String) -> [String] {
        let base = root.appendingPathComponent(directory)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let next = enumerator.nextObject() as? String {
            if next.hasSuffix(".json") { found.append(directory + "/" + next) }
        }
        return found.sorted()
    }

    /// Every transcript path, e.g. "transcripts/push/001-insert-applied.json".
    static let transcriptPaths: [String] = jsonFiles(under: "transcripts")

    /// The raw bytes of a corpus file.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// A corpus file, parsed.
    static func value(_ relativePath: String) throws -> JSONValue {
        try JSONParser.parse(try bytes(relativePath))
    }

    /// The manifest and every transcript, held in memory for a test double.
    static func memoryFiles() throws -> MemoryFiles {
        var files: [String: [UInt8]] = ["cases/manifest.json": try bytes("cases/manifest.json")]
        for path in transcriptPaths { files[path] = try bytes(path) }
        return MemoryFiles(root: "mem", files: files)
    }
}

/// An in-memory `CorpusFiles` test double.
struct MemoryFiles: CorpusFiles {
    let root: String
    var files: [String: [UInt8]]

    func read(_ relativePath: String) throws(CorpusError) -> [UInt8] {
        guard let bytes = files[relativePath] else { throw CorpusError.unreadable(root + "/" + relativePath, "no such file") }
        return bytes
    }

    func jsonFiles(under relativeFolder: String) -> [String] {
        files.keys.filter { $0.hasPrefix(relativeFolder + "/") && $0.hasSuffix(".json") }.sorted()
    }

    /// Parses a stored file.
    func json(_ relativePath: String) throws -> JSONValue {
        try JSONParser.parse(try #require(files[relativePath], "no \(relativePath)"))
    }

    /// Replaces a stored file with the canonical rendering of `value`.
    mutating func set(_ relativePath: String, _ value: JSONValue) {
        files[relativePath] = CanonicalJSON.render(value)
    }
}

/// Runs `body` and returns the `CorpusError` it throws, or nil when it does not throw.
func corpusError<T>(_ body: () throws(CorpusError) -> T) -> CorpusError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Decodes a transcript from a value (rendered canonically) the way the loader does.
func loadTranscript(_ value: JSONValue, file: String = "t.json") throws(CorpusError) -> LoadedTranscript {
    try LoadedTranscript(raw: CanonicalJSON.render(value), file: file)
}

extension JSONValue {
    /// A copy with the value at `pointer` replaced by `newValue` (nil removes); see
    /// `replacing(at:with:)`.
    func setting(_ pointer: String, to newValue: JSONValue?) -> JSONValue {
        guard let parsed = JSONPointer(pointer) else { preconditionFailure("bad pointer \(pointer)") }
        return replacing(at: parsed, with: newValue)
    }
}
