import Corpus
import Foundation
import Harness
import JSON
import Lanes
import Testing

/// Paths and helpers shared by the harness and lanes tests.
enum RunnerFixtures {
    /// The package root, found from this file's path (Tests/LanesTests/RunnerTestSupport.swift).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The shared upstream corpus, read in place and never copied into the repository.
    static var sharedCorpus: String {
        URL(fileURLWithPath: packageRoot + "/../shared/kizunasync-protocol").standardizedFileURL.path
    }

    /// The path of a shared transcript, e.g. "push/001-insert-applied".
    static func transcriptPath(_ caseID: String) -> String {
        sharedCorpus + "/transcripts/\(caseID).json"
    }

    /// A shared transcript, loaded.
    static func transcript(_ caseID: String) throws -> LoadedTranscript {
        let path = transcriptPath(caseID)
        return try LoadedTranscript(raw: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    /// A shared transcript after `edits` (pointer, replacement; nil removes), re-rendered canonically.
    static func editedTranscript(_ caseID: String, _ edits: [(String, JSONValue?)]) throws -> LoadedTranscript {
        let path = transcriptPath(caseID)
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        for (text, value) in edits {
            guard let pointer = JSONPointer(text) else { throw FixtureError("bad pointer \(text)") }
            json = json.replacing(at: pointer, with: value)
        }
        return try LoadedTranscript(raw: CanonicalJSON.render(json), file: path)
    }

    /// The case ids of the shared corpus, in manifest order.
    static func sharedCaseIDs() throws -> [String] {
        try Corpus(files: FolderFiles(root: sharedCorpus)).cases.map(\.id)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary folder, removed when the body ends.
func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// The `RunError` a body throws, or nil when it returns. Any other error is recorded as an issue.
func runError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> RunError? {
    do {
        try body()
        return nil
    } catch let error as RunError {
        return error
    } catch {
        Issue.record("expected a RunError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Whether a file or folder exists.
func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// The names in a folder, sorted.
func listing(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The `RunError` a body throws; records an issue and throws when it returns.
func requireRunError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws -> RunError {
    let thrown = runError(sourceLocation: sourceLocation, body)
    return try #require(thrown, "expected a RunError", sourceLocation: sourceLocation)
}

/// A fresh temporary folder for an async body, removed when the body ends.
func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url.path)
}

/// The `RunError` an async body throws, or nil when it returns. Any other error is recorded as an issue.
func runError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async -> RunError? {
    do {
        try await body()
        return nil
    } catch let error as RunError {
        return error
    } catch {
        Issue.record("expected a RunError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The `RunError` an async body throws; records an issue and throws when it returns.
func requireRunError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async throws -> RunError {
    let thrown = await runError(sourceLocation: sourceLocation, body)
    return try #require(thrown, "expected a RunError", sourceLocation: sourceLocation)
}
