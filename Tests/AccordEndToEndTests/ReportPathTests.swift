import Foundation
import Testing

/// Report paths and usage errors through the built binary: exit 64, one error line on stderr,
/// and never a report or a `.partial` left behind.
@Suite("accord: report paths and usage errors")
struct ReportPathTests {
    /// A fresh temporary folder, removed when `body` ends.
    private func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-report-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    private func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The stderr lines, without the final newline's empty line.
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Exit 64, exactly one `accord: error: …` line on stderr containing every `part`, nothing on stdout.
    private func expectOneErrorLine(_ result: AccordBinary.Result, _ parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 64, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("\n"), sourceLocation: sourceLocation)
        let errorLines = lines(result.stderr)
        #expect(errorLines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let line = errorLines.first ?? ""
        #expect(line.hasPrefix("accord: error: "), "\(line)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(line.contains(part), "\(line) does not mention \(part)", sourceLocation: sourceLocation)
        }
    }

    @Test("--junit X --json X: exit 64, one line saying same file, X not created")
    func sameFile() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/report"
            let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", path, "--json", path])
            expectOneErrorLine(result, ["same file", path])
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(listing(folder).isEmpty, "\(listing(folder))")
        }
    }

    @Test("--junit <existing folder>: exit 64, no <folder>.partial left")
    func junitIsFolder() async throws {
        try await withTemporaryFolder { folder in
            let target = folder + "/reports"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", target])
            expectOneErrorLine(result, [target, "is a folder"])
            #expect(!FileManager.default.fileExists(atPath: target + ".partial"))
            #expect(listing(folder) == ["reports"])
            #expect(listing(target).isEmpty)
        }
    }

    @Test("--junit /nonexistent-dir/out.xml: exit 64 naming the folder")
    func junitInMissingFolder() async throws {
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir"), "the test needs /nonexistent-dir to be absent")
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", "/nonexistent-dir/out.xml"])
        expectOneErrorLine(result, ["/nonexistent-dir/out.xml", "folder /nonexistent-dir does not exist"])
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-dir"))
    }

    @Test("--json in a missing folder under a temp folder: exit 64 naming the folder, nothing created")
    func jsonInMissingFolder() async throws {
        try await withTemporaryFolder { folder in
            let missing = folder + "/missing"
            let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--json", missing + "/out.json"])
            expectOneErrorLine(result, ["folder \(missing) does not exist"])
            #expect(listing(folder).isEmpty)
        }
    }

    @Test("--filter zzz: exit 64, and the reports asked for are not left behind")
    func filterMatchesNothing() async throws {
        try await withTemporaryFolder { folder in
            let result = try await AccordBinary.run([
                "check", AccordBinary.sharedCorpus, "--filter", "zzz", "--junit", folder + "/r.xml", "--json", folder + "/r.json",
            ])
            expectOneErrorLine(result, ["--filter 'zzz'", "matches no"])
            #expect(listing(folder).isEmpty, "no report and no .partial: \(listing(folder))")
        }
    }

    @Test("accord rules I-5 extra: exit 64")
    func rulesExtraArgument() async throws {
        let result = try await AccordBinary.run(["rules", "I-5", "extra"])
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        let errorLines = lines(result.stderr)
        #expect(errorLines.first == "accord: error: unexpected argument 'extra'", "stderr: \(result.stderr)")
        #expect(errorLines.count <= 2, "stderr: \(result.stderr)")
        if errorLines.count == 2 { #expect(errorLines[1] == "See 'accord help rules'.") }
    }

    @Test("bare accord: exit 64 with the help on stderr and nothing on stdout")
    func bareAccord() async throws {
        let result = try await AccordBinary.run([])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(result.stderr.hasPrefix("OVERVIEW: "), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("USAGE: accord <subcommand>"))
        #expect(result.stderr.contains("SUBCOMMANDS:"))
        #expect(result.stderr.contains("check"))
        #expect(result.stderr.contains("rules"))
        #expect(!result.stderr.contains("accord: error:"), "the help, not an error: \(result.stderr)")
        let help = try await AccordBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(result.stderr == help.stdout, "bare accord prints the same help as --help, on stderr")
    }

    @Test("a report path that is also an input is refused and the input is left intact")
    func reportOverInput() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("t.json")
        let original = try Data(contentsOf: URL(fileURLWithPath: AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"))
        try original.write(to: input)
        let result = try await AccordBinary.run(["check", input.path, "--json", input.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is also an input"), "stderr: \(result.stderr)")
        #expect(try Data(contentsOf: input) == original)
    }

    @Test("an empty report path is refused before the run")
    func emptyReportPath() async throws {
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", ""])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the report path is empty"), "stderr: \(result.stderr)")
    }

    @Test("two spellings of one report file through a symlink are refused")
    func sameFileThroughSymlink() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let result = try await AccordBinary.run([
            "check", AccordBinary.sharedCorpus, "--junit", real.appendingPathComponent("r").path, "--json",
            link.appendingPathComponent("r").path,
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("same file"), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: real.appendingPathComponent("r").path))
    }
}
