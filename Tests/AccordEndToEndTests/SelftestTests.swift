import Foundation
import Testing

/// `accord selftest`: the baselines pass and a small filter of mutants is scored; the last line
/// is the score.
@Suite("accord selftest")
struct SelftestTests {
    @Test("--filter cursor-plus-one: baseline passes, the mutant is killed by AC-BINDING, score 1/1, JUnit has one suite per mutant")
    func oneServerMutant() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("selftest.xml")
        let result = try await AccordBinary.run(
            ["selftest", "--filter", "cursor-plus-one", "--junit", junit.path], cwd: AccordBinary.packageRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.last == "mutation score: 1/1 killed", "\(result.stdout)")
        #expect(result.stdout.contains("| `cursor-plus-one` | server |"), "\(result.stdout)")
        #expect(result.stdout.contains("| AC-BINDING | server: `conflict/001-different-columns-merge` › step 2 pull |"), "\(result.stdout)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("selftest/cursor-plus-one"), "\(xml)")
        #expect(xml.contains("selftest/baseline-server"), "\(xml)")
    }

    @Test("a surviving mutant fails the run and is reported, not dropped (signal-with-rows without Conformance/)")
    func survivor() async throws {
        // Only the upstream corpus and one recording: no input pulls under RESET_REQUIRED with data pending.
        let result = try await AccordBinary.run(
            ["selftest", "--filter", "signal-with-rows", "Recordings/schema-reset.jsonl"], cwd: AccordBinary.packageRoot)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("| `signal-with-rows` | server |"), "\(result.stdout)")
        #expect(result.stdout.contains("**SURVIVED**"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("mutation score: 0/1 killed\n"), "\(result.stdout)")
    }

    @Test("with the default inputs, signal-with-rows is killed by I-8 at lifecycle/900 step 2")
    func signalWithRowsKilled() async throws {
        let result = try await AccordBinary.run(["selftest", "--filter", "signal-with-rows"], cwd: AccordBinary.packageRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "| I-8 | server: `lifecycle/900-stale-schema-pull-with-rows-gets-empty-signal` › step 2 pull |"),
            "\(result.stdout)")
        #expect(result.stdout.hasSuffix("mutation score: 1/1 killed\n"), "\(result.stdout)")
    }

    @Test("usage: a filter that matches no mutant is exit 64")
    func usage() async throws {
        let result = try await AccordBinary.run(["selftest", "--filter", "no-such-mutant"], cwd: AccordBinary.packageRoot)
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("matches no mutant"), "\(result.stderr)")
    }
}
