import Foundation
import JSON
import Testing

/// Bad input makes `accord` exit 64 with exactly one `accord: error: …` line on stderr that
/// names the file and the location, and never a crash report.
@Suite("accord: bad input and help", .serialized)
struct BadInputTests {
    static let sample = "transcripts/push/001-insert-applied.json"

    /// A fresh temporary folder, removed when `body` ends.
    private func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-bad-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    /// A file of the shared corpus, parsed.
    private func sharedJSON(_ relativePath: String) throws -> JSONValue {
        let data = try Data(contentsOf: URL(fileURLWithPath: AccordBinary.sharedCorpus + "/" + relativePath))
        return try JSONParser.parse(Array(data))
    }

    private func write(_ value: JSONValue, to path: String) throws {
        try Data(CanonicalJSON.render(value)).write(to: URL(fileURLWithPath: path))
    }

    /// Copies cases/manifest.json and transcripts/** of the shared corpus into `folder`.
    private func copyCorpus(into folder: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/cases", withIntermediateDirectories: true)
        try manager.copyItem(atPath: AccordBinary.sharedCorpus + "/cases/manifest.json", toPath: folder + "/cases/manifest.json")
        try manager.copyItem(atPath: AccordBinary.sharedCorpus + "/transcripts", toPath: folder + "/transcripts")
    }

    private func expectNoCrash(_ result: AccordBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["Fatal error", "Stack dump", "backtrace", "Backtrace"] {
            #expect(!result.stdout.contains(marker), "stdout: \(result.stdout)", sourceLocation: sourceLocation)
            #expect(!result.stderr.contains(marker), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Checks an input error: exit 64, one stderr line naming `file` and every `location` part.
    private func expectInputError(
        _ result: AccordBinary.Result, file: String, location: [String], detail: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 64, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        expectNoCrash(result, sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("\n"), sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let line = String(lines.first ?? "")
        let prefix = "accord: error: " + file
        #expect(line.hasPrefix(prefix), "\(line) does not start with \(prefix)", sourceLocation: sourceLocation)
        for part in location {
            #expect(line.contains(part), "\(line) does not name \(part)", sourceLocation: sourceLocation)
        }
        #expect(line.contains(detail), "\(line) does not say \(detail)", sourceLocation: sourceLocation)
    }

    /// Checks a usage error: exit 64, "accord: error: …" then at most the help hint.
    private func expectUsageError(_ result: AccordBinary.Result, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(result.status == 64, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        expectNoCrash(result, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 1 || lines.count == 2, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("accord: error: ") == true, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.first?.contains(text) == true, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        if lines.count == 2 {
            #expect(lines[1].hasPrefix("See 'accord help"), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - input errors

    @Test("a missing file")
    func missingFile() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/absent.json"
            let result = try await AccordBinary.run(["check", path])
            expectInputError(result, file: path, location: [], detail: "no such file")
        }
    }

    @Test("invalid JSON names file, line and column")
    func invalidJSON() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/broken.json"
            try Data("{\n  \"case\": \"push/001-insert-applied\",\n  \"cites\": [,]\n}\n".utf8).write(to: URL(fileURLWithPath: path))
            let result = try await AccordBinary.run(["check", path])
            expectInputError(result, file: path, location: [path + ":3:", "column"], detail: "invalid JSON")
        }
    }

    @Test("a gap in step numbers names step and pointer")
    func gapInSteps() async throws {
        try await withTemporaryFolder { folder in
            var transcript = try sharedJSON(Self.sample)
            guard case .object(var object) = transcript, case .array(var steps)? = object["steps"] else {
                Issue.record("sample has no steps")
                return
            }
            for index in 2..<steps.count {
                guard case .object(var step) = steps[index] else { continue }
                step["n"] = .number(JSONNumber(index + 2))
                steps[index] = .object(step)
            }
            object["steps"] = .array(steps)
            transcript = .object(object)
            let path = folder + "/gap.json"
            try write(transcript, to: path)
            let result = try await AccordBinary.run(["check", path])
            expectInputError(result, file: path, location: ["step 4", "/steps/2/n"], detail: "expected n=3, found n=4")
        }
    }

    @Test("an unknown step kind names step and pointer")
    func unknownStepKind() async throws {
        try await withTemporaryFolder { folder in
            guard case .object(var object) = try sharedJSON(Self.sample), case .array(var steps)? = object["steps"],
                case .object(var step) = steps[1]
            else {
                Issue.record("sample has no step 2")
                return
            }
            step["kind"] = "sleep"
            steps[1] = .object(step)
            object["steps"] = .array(steps)
            let path = folder + "/kind.json"
            try write(.object(object), to: path)
            let result = try await AccordBinary.run(["check", path])
            expectInputError(result, file: path, location: ["step 2", "/steps/1/kind"], detail: "unknown step kind \"sleep\"")
        }
    }

    @Test("a corpus whose manifest names a missing transcript (I-12)")
    func manifestNamesMissingTranscript() async throws {
        try await withTemporaryFolder { folder in
            try copyCorpus(into: folder)
            try FileManager.default.removeItem(atPath: folder + "/" + Self.sample)
            let manifest = try sharedJSON("cases/manifest.json")
            let index = try #require(manifest["cases"]?.arrayValue?.firstIndex { $0["file"]?.stringValue == Self.sample })
            let result = try await AccordBinary.run(["check", folder])
            expectInputError(
                result, file: folder + "/cases/manifest.json", location: ["/cases/\(index)/file"],
                detail: "names a missing transcript \(Self.sample) (I-12)")
        }
    }

    @Test("a corpus error inside one transcript names that transcript")
    func corpusTranscriptGrammar() async throws {
        try await withTemporaryFolder { folder in
            try copyCorpus(into: folder)
            guard case .object(var object) = try sharedJSON(Self.sample) else { return }
            object["extra"] = true
            try write(.object(object), to: folder + "/" + Self.sample)
            let result = try await AccordBinary.run(["check", folder])
            expectInputError(result, file: folder + "/" + Self.sample, location: ["/extra"], detail: "unknown key \"extra\"")
        }
    }

    @Test("a folder without cases/manifest.json")
    func folderWithoutManifest() async throws {
        try await withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/transcripts", withIntermediateDirectories: true)
            let result = try await AccordBinary.run(["check", folder])
            expectInputError(result, file: folder + "/cases/manifest.json", location: [], detail: "no such file")
        }
    }

    @Test("a recording with a bad middle line names file and line")
    func badRecordingLine() async throws {
        try await withTemporaryFolder { folder in
            let header =
                #"{"accord_recording":1,"protocol":"kizunasync","redaction":{},"started_at":"2025-01-01T00:00:00Z","tool":"accord test","upstream":"https://example.invalid"}"#
            let path = folder + "/session.jsonl"
            try Data((header + "\n{\"exchange\": oops\n").utf8).write(to: URL(fileURLWithPath: path))
            let result = try await AccordBinary.run(["check", path])
            expectInputError(result, file: path, location: [path + ":2:"], detail: "invalid JSON")
        }
    }

    // MARK: - usage errors

    @Test("an unknown option")
    func unknownOption() async throws {
        let result = try await AccordBinary.run(["check", "--bogus", AccordBinary.sharedCorpus])
        expectUsageError(result, mentioning: "--bogus")
    }

    @Test("a missing PATH")
    func missingPath() async throws {
        let result = try await AccordBinary.run(["check"])
        expectUsageError(result, mentioning: "<path>")
    }

    @Test("an option without its value")
    func missingOptionValue() async throws {
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit"])
        expectUsageError(result, mentioning: "--junit")
    }

    @Test("accord record with --loops out of range")
    func recordLoopsOutOfRange() async throws {
        let result = try await AccordBinary.run(
            ["record", "--upstream", "http://127.0.0.1:9", "--out", NSTemporaryDirectory() + "accord-unused.jsonl", "--loops", "0"])
        expectUsageError(result, mentioning: "--loops")
    }

    @Test("accord record with --upstream-ca that is not a readable file", arguments: ["/nonexistent/ca.pem", "/tmp"])
    func recordUpstreamCAMissing(path: String) async throws {
        let result = try await AccordBinary.run(
            ["record", "--upstream", "https://127.0.0.1:9", "--out", NSTemporaryDirectory() + "accord-unused.jsonl", "--upstream-ca", path])
        expectUsageError(result, mentioning: "--upstream-ca")
    }

    @Test("accord record with --upstream-ca that holds no certificate, or with an http upstream")
    func recordUpstreamCANotCertificates() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("not-a-ca.pem").path
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let out = folder.appendingPathComponent("unused.jsonl").path
        let result = try await AccordBinary.run(["record", "--upstream", "https://127.0.0.1:9", "--out", out, "--upstream-ca", garbage])
        expectUsageError(result, mentioning: "no PEM certificate")
        let plain = try await AccordBinary.run(
            ["record", "--upstream", "http://127.0.0.1:9", "--out", out, "--upstream-ca", "/etc/ssl/certs/ca-certificates.crt"])
        expectUsageError(plain, mentioning: "https:// upstream only")
        #expect(!FileManager.default.fileExists(atPath: out), "no recording is started")
    }

    @Test(
        "accord record with --upstream-timeout that is not a number of seconds",
        arguments: ["-1", "soon", "90000", "nan", "inf", "0.05", "1e-300"])
    func recordUpstreamTimeoutOutOfRange(value: String) async throws {
        let result = try await AccordBinary.run(
            [
                "record", "--upstream", "http://127.0.0.1:9", "--out", NSTemporaryDirectory() + "accord-unused.jsonl", "--upstream-timeout",
                value,
            ])
        expectUsageError(result, mentioning: "--upstream-timeout")
    }

    @Test(
        "accord record with --buffer-budget that is not a byte count of at least 64K",
        arguments: ["12", "lots", "-5M", "1.5G", "99999999999G"])
    func recordBufferBudgetBad(value: String) async throws {
        let result = try await AccordBinary.run(
            [
                "record", "--upstream", "http://127.0.0.1:9", "--out", NSTemporaryDirectory() + "accord-unused.jsonl", "--buffer-budget",
                value,
            ])
        expectUsageError(result, mentioning: "--buffer-budget")
    }

    @Test("an unknown subcommand")
    func unknownSubcommand() async throws {
        let result = try await AccordBinary.run(["frobnicate"])
        expectUsageError(result, mentioning: "frobnicate")
    }

    // MARK: - the good paths

    @Test("accord check on the shared corpus passes")
    func sharedCorpusPasses() async throws {
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus])
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        expectNoCrash(result)
    }

    @Test(
        "help prints OVERVIEW, USAGE and OPTIONS",
        arguments: [["help"], ["--help"], ["-h"], ["help", "check"], ["check", "--help"], ["check", "-h"]])
    func help(arguments: [String]) async throws {
        let result = try await AccordBinary.run(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        expectNoCrash(result)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:"] {
            #expect(result.stdout.contains(section), "\(arguments) lacks \(section)")
        }
        if arguments.contains("check") {
            #expect(result.stdout.contains("USAGE: accord check"))
            #expect(result.stdout.contains("--junit"))
            #expect(result.stdout.contains("--filter"))
        } else {
            #expect(result.stdout.contains("SUBCOMMANDS:"))
            #expect(result.stdout.contains("check"))
        }
    }
}
