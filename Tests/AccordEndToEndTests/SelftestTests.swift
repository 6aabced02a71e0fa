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

    /// Each seeded PowerSync-service fault, the rule it breaks, and the case and step that must catch it.
    static let powerSyncKills: [(mutant: String, rule: String, at: String)] = [
        ("ps-complete-stale-last-op-id", "PS-COMPLETE", "`powersync/001-initial-sync-completes` › step 2 sync-stream"),
        ("ps-checksum-off-by-one", "PS-CHECKSUM", "`powersync/001-initial-sync-completes` › step 2 sync-stream"),
        ("ps-partial-claims-next-priority", "PS-PRIORITY", "`powersync/004-priorities-complete-in-order` › step 2 sync-stream"),
        ("ps-write-checkpoint-goes-back", "PS-WRITE-CHECKPOINT", "`powersync/006-write-checkpoints-move-forward` › step 9 sync-stream"),
        (
            "ps-request-id-moves-back", "PS-REQUEST-ID",
            "`powersync/007-checkpoint-request-ids-keep-the-greatest` › step 5 checkpoint-request"
        ),
        ("ps-diff-removes-unheld-bucket", "PS-DIFF", "`powersync/006-write-checkpoints-move-forward` › step 4 sync-stream"),
        ("ps-data-after-does-not-chain", "PS-OP-ORDER", "`powersync/002-paged-data-chains-and-resumes` › step 2 sync-stream"),
    ]

    @Test(
        "--filter 'ps-*': the unmutated PowerSync service passes, and each seeded fault is killed by the rule it breaks at its case and step"
    )
    func powerSyncServiceMutants() async throws {
        let result = try await AccordBinary.run(["selftest", "--filter", "ps-*"], cwd: AccordBinary.packageRoot)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("baseline powersync-service: passed"), "\(result.stderr)")
        for kill in Self.powerSyncKills {
            #expect(
                result.stdout.contains("| `\(kill.mutant)` | powersync-service | \(kill.rule) | \(kill.rule) | server: \(kill.at) |"),
                "\(kill.mutant): \(result.stdout)")
        }
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.last == "mutation score: 7/7 killed", "\(result.stdout)")
    }

    @Test("a mixed filter counts both profiles on the score line")
    func scoreCountsBothProfiles() async throws {
        let result = try await AccordBinary.run(["selftest", "--filter", "[cp][us]*-[ot]*"], cwd: AccordBinary.packageRoot)
        let last = result.stdout.split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        #expect(last.contains("(kizunasync ") && last.contains(", powersync "), "\(result.stdout)")
    }
}
