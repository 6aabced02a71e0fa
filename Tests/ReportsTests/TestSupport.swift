import Foundation
import Reports

/// An in-memory report sink that records every chunk it is given.
final class BufferSink: ReportSink {
    private(set) var bytes: [UInt8] = []
    private(set) var chunks = 0
    private(set) var largestChunk = 0

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
        chunks += 1
        largestChunk = max(largestChunk, bytes.count)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A sink that accepts `limit` bytes, then refuses everything.
final class RefusingSink: ReportSink {
    struct Refused: Error, Equatable {}
    private let limit: Int
    private(set) var accepted = 0

    init(limit: Int = 0) { self.limit = limit }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard accepted + bytes.count <= limit else { throw Refused() }
        accepted += bytes.count
    }
}

enum Fixtures {
    /// The package root, found from this file's path (Tests/ReportsTests/TestSupport.swift).
    static var packageRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    /// ../shared/junit/junit-10.xsd, relative to the package root.
    static var junitSchema: String { packageRoot + "/../shared/junit/junit-10.xsd" }

    /// The JUnit schema's bytes, read in place from ../shared.
    static func junitSchemaBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: junitSchema)))
    }

    /// Text with every kind of character XML and JSON writers must take care of.
    static let awkward = "a<b & c>\"d\" 'e' \u{01}\u{0B}\u{1F} tab\there\nline\r\u{FFFE}\u{FFFF} é 日本 🎌 ]]> \\ \u{7F}"

    /// A suite with one case of each outcome, properties and awkward text throughout.
    static func mixedSuite(name: String = "push/002-rls-denied-not-a-wedge") -> SuiteResult {
        SuiteResult(
            name: name,
            file: "cases/push/002 <rls>.json",
            properties: [
                .init(name: "lane", value: "server"),
                .init(name: "target", value: "embedded & \"quoted\""),
                .init(name: "corpus commit", value: "abc123\u{00}"),
                .init(name: "accord version", value: "0.1.0"),
            ],
            cases: [
                CaseResult(name: "step 01 push", classname: "kizuna.push", outcome: .passed, time: 0.001234),
                CaseResult(
                    name: "step 07 push", classname: "kizuna.push",
                    outcome: .failed([
                        Failure(
                            ruleID: "I-5", message: "step 7 push: I-5 verdict 1 answers <nothing> & more",
                            body: "{\n  \"expected\": \"a<b\",\n  \"actual\": \"\u{02}\"\n}"),
                        Failure(ruleID: "I-3", message: awkward, body: ""),
                    ]),
                    time: 0.5),
                CaseResult(
                    name: "postcondition rows", classname: "kizuna.push",
                    outcome: .skipped("known failing: \(awkward)"), time: 0),
                CaseResult(
                    name: "step 09 pull", classname: "kizuna.pull",
                    outcome: .errored("transport error: connection reset \u{07}"), time: 12345.678901234),
                CaseResult(name: "step 10 \(awkward)", classname: "kizuna.\(awkward)", outcome: .failed([]), time: 1e-9),
            ],
            time: 12346.2)
    }
}
