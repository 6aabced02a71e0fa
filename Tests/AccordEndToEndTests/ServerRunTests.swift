import Foundation
import KizunaWire
import Reports
import Testing

/// `accord run --server embedded`: the server lane end to end through the binary.
@Suite("accord run --server embedded")
struct ServerRunTests {
    static var scenarios: String { AccordBinary.packageRoot + "/../shared/corpus-scenarios.json" }

    @Test("every non-blocked corpus case passes against the embedded server; JUnit validates")
    func corpusPasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("run.xml")
        let result = try await AccordBinary.run([
            "run", "--server", "embedded", AccordBinary.sharedCorpus, "--scenarios", Self.scenarios, "--junit", junit.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 suites ("), "\(result.stdout)")
        #expect(result.stdout.contains(" 0 failed, "), "\(result.stdout)")
        let xml = [UInt8](try Data(contentsOf: junit))
        let schema = [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd")))
        try JUnitSchema.validate(xml: xml, schema: schema)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<property name=\"lane\" value=\"server\"/>"))
        #expect(text.contains("tier pass: canonical bytes equal"))
    }

    @Test("without the scenarios the cases that need setup fail, naming their steps")
    func withoutScenariosFails() async throws {
        let result = try await AccordBinary.run(["run", "--server", "embedded", AccordBinary.sharedCorpus, "--filter", "fencing/001*"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("FAIL fencing/001-late-commit-delivered › step 3 pull: AC-BINDING cursor \"6~5\""), "\(result.stdout)")
        #expect(result.stdout.contains("(+1 more: AC-GOLDEN)"), "one line per failing case, naming the rest: \(result.stdout)")
    }

    @Test("a known-failing case is skipped when it fails and fails the run when it passes")
    func knownFailing() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("known-failing.txt")
        try Data("fencing/001-late-commit-delivered  # needs its scenario\n".utf8).write(to: list)
        let base = ["run", "--server", "embedded", AccordBinary.sharedCorpus, "--filter", "fencing/001*", "--known-failing", list.path]
        let expectedFailure = try await AccordBinary.run(base)
        #expect(expectedFailure.status == 0, "\(expectedFailure.stdout)")
        let stale = try await AccordBinary.run(base + ["--scenarios", Self.scenarios])
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("is listed as known failing but ended pass"), "\(stale.stdout)")
    }

    @Test("shards partition the cases")
    func shardsPartition() async throws {
        var total = 0
        for shard in ["1/2", "2/2"] {
            let result = try await AccordBinary.run([
                "run", "--server", "embedded", AccordBinary.sharedCorpus, "--scenarios", Self.scenarios, "--shard", shard, "--jobs", "1",
            ])
            #expect(result.status == 0)
            let count = result.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            total += count
        }
        #expect(total == 41)
    }

    @Test("usage errors: no --server, a URL target in this build, a bad shard")
    func usageErrors() async throws {
        #expect(try await AccordBinary.run(["run", AccordBinary.sharedCorpus]).status == 64)
        #expect(try await AccordBinary.run(["run", "--server", "http://127.0.0.1:1", AccordBinary.sharedCorpus]).status == 64)
        #expect(try await AccordBinary.run(["run", "--server", "embedded", "--shard", "3/2", AccordBinary.sharedCorpus]).status == 64)
    }
}
