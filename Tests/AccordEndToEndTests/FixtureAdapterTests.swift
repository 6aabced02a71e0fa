import Foundation
import Testing

/// The sample fixture adapter (issue 37): docs/server-contract.md's walk-through, run as the file
/// it shows, puts `samples/fixture-adapter/accord_fixture_adapter.py` in front of a small SQLite
/// server written for the test and passes the shared corpus.
@Suite("The sample fixture adapter", .serialized)
struct FixtureAdapterTests {
    static let script = AccordBinary.packageRoot + "/samples/fixture-adapter/walkthrough.sh"

    @Test("docs/server-contract.md shows the walk-through script as it is")
    func docIsTheScript() throws {
        let doc = try String(contentsOfFile: AccordBinary.packageRoot + "/docs/server-contract.md", encoding: .utf8)
        let file = try String(contentsOfFile: Self.script, encoding: .utf8)
        let start = try #require(doc.range(of: "<!-- samples/fixture-adapter/walkthrough.sh -->\n```bash\n"))
        let end = try #require(doc.range(of: "```\n<!-- end -->", range: start.upperBound..<doc.endIndex))
        #expect(String(doc[start.upperBound..<end.lowerBound]) == file)
    }

    @Test("the walk-through runs: the sample adapter in front of the SQLite server passes the whole shared corpus")
    func walkThrough() async throws {
        let result = try await AccordBinary.runProgram(
            "/bin/bash", [Self.script],
            environment: ["ACCORD": AccordBinary.path, "CORPUS": AccordBinary.sharedCorpus])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("accord: 1 case (1 passed, 0 failed, 0 skipped)"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "accord: 41 cases (39 passed, 0 failed, 2 skipped), 162 steps: 162 passed, 0 failed, 0 skipped, 0 errors"),
            "the same line as the embedded reference server gives: \(result.stdout)")
        #expect(result.stdout.contains("3. capabilities: {\"clock\":\"logical\",\"seqs\":\"at-write\",\"numbering\":\"dense\"}"))
        #expect(result.stdout.contains("5. the whole corpus passed"), "\(result.stdout)")
    }
}
