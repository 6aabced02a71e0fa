import Corpus
import Foundation
import JSON
import Testing

/// `accord check` on recordings: the same rules as transcripts, streamed line by line.
@Suite("accord check on recordings")
struct RecordingCheckTests {
    /// A recording of every rpc step of some corpus transcripts, one client per transcript.
    static func recording(from cases: [String], edit: (Int, inout RecordedExchange) -> Void = { _, _ in }) throws -> [UInt8] {
        let header = RecordingHeader(
            tool: "accord-test", startedAt: "2026-11-30T00:00:00Z", upstream: "http://127.0.0.1:1", redaction: ["policy": "default"])
        var lines = [CanonicalJSON.compact(header.json)]
        var number = 0
        for name in cases {
            let path = AccordBinary.sharedCorpus + "/transcripts/\(name).json"
            let loaded = try LoadedTranscript(raw: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
            for step in loaded.transcript.steps {
                guard case .rpc(let rpc) = step.action else { continue }
                number += 1
                var exchange = RecordedExchange(number: number, rpc: rpc.rpc.rawValue, request: rpc.request, response: rpc.response)
                exchange.client = loaded.transcript.context.clientID + "#" + name
                exchange.user = loaded.transcript.context.userID
                edit(number, &exchange)
                lines.append(CanonicalJSON.compact(exchange.json))
            }
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static let cases = ["pull/002-keyset-pagination", "push/002-rls-denied-not-a-wedge", "lifecycle/001-checkpoint-expired-rehydrate"]

    func write(_ bytes: [UInt8]) throws -> (URL, URL) {
        let folder = try AccordBinary.temporaryFolder()
        let file = folder.appendingPathComponent("session.jsonl")
        try Data(bytes).write(to: file)
        return (folder, file)
    }

    @Test("a recording of valid traffic passes, and every exchange is counted")
    func validRecordingPasses() async throws {
        let (folder, file) = try write(try Self.recording(from: Self.cases))
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await AccordBinary.run(["check", file.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 case (1 passed, 0 failed, 0 skipped), 7 steps: 7 passed, 0 failed"), "\(result.stdout)")
    }

    @Test("a dropped verdict in a recording fails I-5 at that exchange, naming its line")
    func brokenExchangeFails() async throws {
        let bytes = try Self.recording(from: Self.cases) { number, exchange in
            if exchange.rpc == "push" {
                exchange.response = exchange.response.replacing(at: JSONPointer(tokens: ["verdicts", "1"]), with: nil)
            }
        }
        let (folder, file) = try write(bytes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await AccordBinary.run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL session.jsonl › exchange 4 push (line 5): I-5 expected 2 verdicts"), "\(result.stdout)")
        #expect(result.stdout.contains("6 passed, 1 failed"))
    }

    @Test("cursor state is kept per client: interleaved clients do not trip I-3")
    func clientsAreSeparate() async throws {
        // Two clients' sessions back to back: the second starts again from cursor "0".
        let bytes = try Self.recording(from: ["pull/002-keyset-pagination", "pull/002-keyset-pagination"]) { number, exchange in
            if number > 2 { exchange.client = "second-client" }
        }
        let (folder, file) = try write(bytes)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await AccordBinary.run(["check", file.path]).status == 0)
    }

    @Test("a torn last line is reported and ignored; every complete exchange is checked")
    func tornTailIsNotFatal() async throws {
        var bytes = try Self.recording(from: Self.cases)
        bytes += Array(#"{"at_ms":1,"duration_ms":1,"exchange":8,"http":{"meth"#.utf8)
        let (folder, file) = try write(bytes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", file.path, "--json", report.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let cases = json["suites"]?.arrayValue?.first?["cases"]?.arrayValue ?? []
        #expect(cases.filter { $0["outcome"]?.stringValue == "passed" }.count == 7)
        let torn = try #require(cases.first { $0["name"]?.stringValue == "torn tail" })
        #expect(torn["reason"]?.stringValue?.contains("line 9") == true)
    }

    @Test("--filter selects cases by id")
    func filterSelectsCases() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--filter", "push/*", "--json", report.path])
        #expect(result.status == 0)
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let names = (json["suites"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(!names.isEmpty && names.allSatisfy { $0.hasPrefix("push/") }, "\(names)")
    }
}
