import Foundation
import Testing

/// `accord run` prints a failing case's lines as it ends, then the verdict; `--quiet` the summary only.
@Suite("accord run: results as they happen")
struct LiveOutputTests {
    /// The corpus without its scenarios file: lifecycle/005 starts from a later seq and fails AC-BINDING.
    static let failing = ["run", "--server", "embedded", AccordBinary.sharedCorpus]

    @Test("each failing case's lines come before the verdict, which is the last line, and no failure is printed twice")
    func failuresThenVerdict() async throws {
        let result = try await AccordBinary.run(Self.failing)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.last)
        #expect(verdict.hasPrefix("accord: 41 suites"), "\(result.stdout)")
        let failures = lines.dropLast()
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { $0.hasPrefix("FAIL ") || $0.hasPrefix("ERROR ") || $0.hasPrefix("… and ") }, "\(result.stdout)")
        #expect(failures.contains { $0.hasPrefix("FAIL lifecycle/005-bootstrap-after-reap-pages-to-completion › ") })
        #expect(Set(failures.filter { !$0.hasPrefix("… ") }).count == failures.filter { !$0.hasPrefix("… ") }.count, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "no progress line when stderr is not a terminal: \(result.stderr)")
        let again = try await AccordBinary.run(Self.failing)
        #expect(again.stdout == result.stdout, "the same inputs print the same text")
    }

    @Test("--quiet prints the summary only: the first failures and the verdict, as at the end of a run")
    func quiet() async throws {
        let loud = try await AccordBinary.run(Self.failing)
        let quiet = try await AccordBinary.run(Self.failing + ["--quiet"])
        #expect(quiet.status == 1)
        let verdict = loud.stdout.split(separator: "\n").last.map(String.init)
        #expect(quiet.stdout.split(separator: "\n").last.map(String.init) == verdict)
        #expect(quiet.stdout.split(separator: "\n").count <= 12, "\(quiet.stdout)")
        #expect(quiet.stdout.hasPrefix("FAIL "), "\(quiet.stdout)")
    }
}
