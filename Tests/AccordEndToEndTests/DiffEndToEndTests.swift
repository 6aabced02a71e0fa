import Foundation
import Testing

/// `accord diff`: one recording sent to two servers, their live responses compared.
@Suite("accord diff", .serialized)
struct DiffEndToEndTests {
    @Test("the embedded server against itself: no differences, exit 0")
    func identical() async throws {
        let (folder, recording) = try await ReplayEndToEndTests.converted("push/008-composite-key-writes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("diff.json").path
        let result = try await AccordBinary.run(["diff", "--server", "embedded", "--server", "embedded", recording, "--json", json])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 steps: 4 passed"), "\(result.stdout)")
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("identical canonical bytes"))
    }

    @Test("against accord serve with a column made read-only: each difference named by exchange and pointer, exit 1")
    func differentServer() async throws {
        let (folder, recording) = try await ReplayEndToEndTests.converted("push/008-composite-key-writes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let domain = folder.appendingPathComponent("domain.json")
        let seats = """
            {"tables": {"seats": {"bucket_column": "owner_id", "key_columns": ["hall", "seat"],
              "columns": {"hall": "bigint", "holder": "text", "owner_id": "uuid", "seat": "integer"},
              "read_only_columns": ["holder"]}}}
            """
        try Data(seats.utf8).write(to: domain)
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "diff-secret", "--fixtures", "--domain", domain.path])
        defer { _ = served.stop() }
        let url = "http://127.0.0.1:\(served.port)"
        let junit = folder.appendingPathComponent("diff.xml").path
        let result = try await AccordBinary.run([
            "diff", "--server", "embedded", "--server", url, "--jwt-secret", "diff-secret", recording, "--junit", junit,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("exchange 4 push: responses differ at /verdicts/0"), "\(result.stdout)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("AC-DIFF"))
    }

    @Test("usage errors exit 64: one server, three servers, a transcript instead of a recording")
    func usage() async throws {
        let (folder, recording) = try await ReplayEndToEndTests.converted("push/001-insert-applied")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await AccordBinary.run(["diff", "--server", "embedded", recording]).status == 64)
        let three = ["diff", "--server", "embedded", "--server", "embedded", "--server", "embedded", recording]
        #expect(try await AccordBinary.run(three).status == 64)
        let transcript = AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"
        let wrongInput = try await AccordBinary.run(["diff", "--server", "embedded", "--server", "embedded", transcript])
        #expect(wrongInput.status == 64)
        #expect(wrongInput.stderr.contains("is not a recording"))
        #expect(try await AccordBinary.run(["diff", "--server", "embedded", "--server", "nowhere", recording]).status == 64)
    }
}
