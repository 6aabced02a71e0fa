import Foundation
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
        #expect(result.stdout.contains("41 cases ("), "\(result.stdout)")
        #expect(result.stdout.contains(" 0 failed, "), "\(result.stdout)")
        let xml = [UInt8](try Data(contentsOf: junit))
        let schema = [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd")))
        try JUnitSchema.validate(xml: xml, schema: schema)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<property name=\"lane\" value=\"server\"/>"))
        #expect(text.contains("tier pass: canonical bytes equal"))
    }

    @Test("with no --scenarios the built-in setup plays the whole shared corpus green")
    func builtInSetupByDefault() async throws {
        let result = try await AccordBinary.run(["run", "--server", "embedded", AccordBinary.sharedCorpus, "--quiet"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("accord: 41 cases (39 passed, 0 failed, 2 skipped), 162 steps: 162 passed, 0 failed"), "\(result.stdout)"
        )
    }

    @Test("a case whose setup is missing is not applicable, named with what it needs; alone, it is a setup error (exit 78)")
    func missingSetupNotApplicable() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let partial = folder.appendingPathComponent("partial.json")
        try Data(#"{"cases": {"fencing/001-late-commit-delivered": {"next_seq": "5"}}}"#.utf8).write(to: partial)
        let whole = try await AccordBinary.run(["run", "--server", "embedded", AccordBinary.sharedCorpus, "--scenarios", partial.path])
        #expect(whole.status == 0, "never failed: \(whole.stdout)\(whole.stderr)")
        #expect(
            whole.stdout.contains(
                "SKIP fencing/001-late-commit-delivered: not applicable: the case needs setup it states only in prose: a transaction held open (step 3 answers a cursor with a hole, \"6~5\")"
            ), "\(whole.stdout)")
        #expect(whole.stdout.contains("41 cases (38 passed, 0 failed, 3 skipped)"), "\(whole.stdout)")

        let alone = try await AccordBinary.run([
            "run", "--server", "embedded", AccordBinary.sharedCorpus, "--scenarios", partial.path, "--filter", "fencing/001*",
        ])
        #expect(alone.status == 78, "\(alone.stdout)\(alone.stderr)")
        let lines = alone.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(alone.stderr)")
        #expect(alone.stderr.contains("nothing was checked") && alone.stderr.contains("a transaction held open"), "\(alone.stderr)")
    }

    @Test("a known-failing case is skipped when it fails and fails the run when it passes")
    func knownFailing() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("known-failing.txt")
        try Data("fencing/001-late-commit-delivered  # its transaction commits a step late here\n".utf8).write(to: list)
        let late = folder.appendingPathComponent("late.json")
        try Data(
            #"{"cases": {"fencing/001-late-commit-delivered": {"next_seq": "5", "held": [{"step": 1, "txn": "t1", "commit_after_step": 6}]}}}"#
                .utf8
        ).write(to: late)
        let base = ["run", "--server", "embedded", AccordBinary.sharedCorpus, "--filter", "fencing/001*", "--known-failing", list.path]
        let expectedFailure = try await AccordBinary.run(base + ["--scenarios", late.path])
        #expect(expectedFailure.status == 0, "\(expectedFailure.stdout)")
        let stale = try await AccordBinary.run(base)
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
            let verdict = result.stdout.split(separator: "\n").last ?? ""
            let count = verdict.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            total += count
        }
        #expect(total == 41)
    }

    @Test(
        "--server is read once into its kind: an unknown form and a checkpoint backend that is not http(s) are usage errors naming the forms"
    )
    func serverForms() async throws {
        let unknown = try await AccordBinary.run(["run", "--server", "ftp://127.0.0.1:1", AccordBinary.sharedCorpus])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--server takes 'embedded', an http(s) URL or a postgres:// URL, found 'ftp://127.0.0.1:1'"))
        let backend = try await AccordBinary.run(["run", "--server", "checkpoint-backend+ftp://x", AccordBinary.sharedCorpus])
        #expect(backend.status == 64)
        #expect(backend.stderr.contains("--server checkpoint-backend+<URL> takes an http(s) URL, found 'ftp://x'"), "\(backend.stderr)")
        let diff = try await AccordBinary.run([
            "diff", "--server", "embedded", "--server", "nope", AccordBinary.packageRoot + "/Recordings/schema-reset.jsonl",
        ])
        #expect(diff.status == 64)
        #expect(diff.stderr.contains("found 'nope'"), "\(diff.stderr)")
    }

    @Test("usage errors: no --server, a URL target in this build, a bad shard")
    func usageErrors() async throws {
        #expect(try await AccordBinary.run(["run", AccordBinary.sharedCorpus]).status == 64)
        #expect(try await AccordBinary.run(["run", "--server", "http://127.0.0.1:1", AccordBinary.sharedCorpus]).status == 64)
        #expect(try await AccordBinary.run(["run", "--server", "embedded", "--shard", "3/2", AccordBinary.sharedCorpus]).status == 64)
    }
}
