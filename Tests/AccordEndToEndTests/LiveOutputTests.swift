import Foundation
import Testing

/// `accord run` prints a failing case's lines as it ends, then the verdict; `--quiet` the summary only.
@Suite("accord run: results as they happen")
struct LiveOutputTests {
    /// The corpus with lifecycle/005's history left out (a scenarios file that gives it none but a
    /// first seq of 1 meets its need for numbering, not its reaped tombstone): it fails AC-BINDING.
    static func failing() throws -> (arguments: [String], folder: URL) {
        let folder = try AccordBinary.temporaryFolder()
        let file = folder.appendingPathComponent("scenarios.json")
        try Data(#"{"cases": {"lifecycle/005-bootstrap-after-reap-pages-to-completion": {"next_seq": "1"}}}"#.utf8).write(to: file)
        return (["run", "--server", "embedded", AccordBinary.sharedCorpus, "--scenarios", file.path], folder)
    }

    @Test("each failing case's lines come before the verdict, which is the last line, and no failure is printed twice")
    func failuresThenVerdict() async throws {
        let (failing, folder) = try Self.failing()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await AccordBinary.run(failing)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.last)
        #expect(verdict.hasPrefix("accord: 41 cases"), "\(result.stdout)")
        let failures = lines.dropLast().filter { !$0.hasPrefix("SKIP ") }
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { $0.hasPrefix("FAIL ") || $0.hasPrefix("ERROR ") || $0.hasPrefix("… and ") }, "\(result.stdout)")
        #expect(failures.contains { $0.hasPrefix("FAIL lifecycle/005-bootstrap-after-reap-pages-to-completion › ") })
        #expect(Set(failures.filter { !$0.hasPrefix("… ") }).count == failures.filter { !$0.hasPrefix("… ") }.count, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "no progress line when stderr is not a terminal: \(result.stderr)")
        let again = try await AccordBinary.run(failing)
        #expect(again.stdout == result.stdout, "the same inputs print the same text")
    }

    @Test("--quiet prints the summary only: the first failures and the verdict, as at the end of a run")
    func quiet() async throws {
        let (failing, folder) = try Self.failing()
        defer { try? FileManager.default.removeItem(at: folder) }
        let loud = try await AccordBinary.run(failing)
        let quiet = try await AccordBinary.run(failing + ["--quiet"])
        #expect(quiet.status == 1)
        let verdict = loud.stdout.split(separator: "\n").last.map(String.init)
        #expect(quiet.stdout.split(separator: "\n").last.map(String.init) == verdict)
        #expect(quiet.stdout.split(separator: "\n").count <= 12, "\(quiet.stdout)")
        #expect(quiet.stdout.hasPrefix("FAIL "), "\(quiet.stdout)")
    }
}
