import Foundation
import JSON
import Testing

@testable import KizunaWire

/// Locates the shared upstream corpus (../shared/kizunasync-protocol next to the package root)
/// without ever copying it into the repository.
enum Corpus {
    /// The package root: this file is <root>/Tests/KizunaWireTests/CorpusSupport.swift.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // KizunaWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// The shared protocol corpus.
    static let root: URL =
        packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared")
        .appendingPathComponent("kizunasync-protocol")

    /// Every `.json` file of the corpus (relative paths, sorted), listed once. Plain readdir
    /// recursion rather than a DirectoryEnumerator, which is not safe to run from parallel tests.
    static let allJSONFiles: [String] = {
        var found: [String] = []
        func walk(_ relative: String) {
            let url = relative.isEmpty ? root : root.appendingPathComponent(relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory) else {
                    continue
                }
                if isDirectory.boolValue { walk(path) } else if name.hasSuffix(".json") { found.append(path) }
            }
        }
        walk("")
        return found.sorted()
    }()

    /// Every `.json` file under `directory` (relative to the corpus root, sorted).
    static func jsonFiles(under directory: String = "") -> [String] {
        directory.isEmpty ? allJSONFiles : allJSONFiles.filter { $0.hasPrefix(directory + "/") }
    }

    /// The raw bytes of a corpus file.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// A corpus file, parsed.
    static func value(_ relativePath: String) throws -> JSONValue {
        try JSONParser.parse(try bytes(relativePath))
    }

    /// One rpc step of a transcript.
    struct RPCStep: Sendable, CustomTestStringConvertible {
        let file: String
        let step: Int
        let rpc: String
        let request: JSONValue
        let response: JSONValue
        var testDescription: String { "\(file) step \(step) (\(rpc))" }
    }

    /// Every rpc step of every transcript, loaded once.
    static let allRPCSteps: [RPCStep] = rpcSteps()

    /// Every rpc step of every transcript, in file then step order.
    static func rpcSteps() -> [RPCStep] {
        var steps: [RPCStep] = []
        for file in jsonFiles(under: "transcripts") {
            guard let document = try? value(file), let list = document["steps"]?.arrayValue else { continue }
            for step in list where step["kind"]?.stringValue == "rpc" {
                guard let rpc = step["rpc"]?.stringValue, let request = step["request"], let response = step["response"] else {
                    continue
                }
                steps.append(
                    RPCStep(
                        file: file, step: step["n"]?.numberValue?.intValue ?? -1, rpc: rpc, request: request,
                        response: response))
            }
        }
        return steps
    }
}

/// Runs `body` and returns the `WireError` it throws, or nil when it does not throw.
/// Any other error is recorded as a test issue.
func wireError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> WireError? {
    do {
        _ = try body()
        return nil
    } catch let error as WireError {
        return error
    } catch {
        Issue.record("expected a WireError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Runs `body` and returns the `JSONParseError` it throws, or nil when it does not throw.
func parseError(_ text: String) -> JSONParseError? {
    parseError(Array(text.utf8))
}

/// Parses `bytes` and returns the `JSONParseError`, or nil when they parse.
func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// Canonical text of a value, as a String (for readable expectations).
func canonicalText(_ value: JSONValue) -> String {
    String(decoding: CanonicalJSON.render(value), as: UTF8.self)
}

/// Parses text the test knows is valid JSON.
func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(text)
}

extension JSONValue {
    /// A copy with the value at `pointer` replaced by `newValue` (nil removes); see
    /// `replacing(at:with:)`.
    func setting(_ pointer: String, to newValue: JSONValue?) -> JSONValue {
        guard let parsed = JSONPointer(pointer) else { preconditionFailure("bad pointer \(pointer)") }
        return replacing(at: parsed, with: newValue)
    }

    /// A copy with a member appended (duplicates allowed) to the object at `pointer`.
    func appendingMember(_ key: String, _ value: JSONValue, at pointer: String = "") -> JSONValue {
        guard let parsed = JSONPointer(pointer), case .object(var object)? = self.value(at: parsed) else {
            preconditionFailure("not an object at \(pointer)")
        }
        object.members.append(JSONObject.Member(key: key, value: value))
        return pointer.isEmpty ? .object(object) : setting(pointer, to: .object(object))
    }
}

/// The rpc step `n` of a corpus transcript.
func rpcStep(_ file: String, _ n: Int) throws -> Corpus.RPCStep {
    try #require(Corpus.allRPCSteps.first { $0.file == file && $0.step == n }, "no rpc step \(n) in \(file)")
}
