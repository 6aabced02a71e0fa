import Corpus
import Foundation
import JSON
import Testing

/// `--max-line`: a recording line (or a whole transcript) over the cap is an input error, exit 64
/// with one line naming the file and the line, on every command that reads recordings.
@Suite("accord: the --max-line cap")
struct LineCapTests {
    /// A recording whose second line (its first exchange) is padded to about `padding` bytes.
    static func recording(padding: Int) throws -> (header: Int, bytes: [UInt8]) {
        let valid = try RecordingCheckTests.recording(from: ["pull/002-keyset-pagination"])
        let lines = valid.split(separator: 0x0A).map(Array.init)
        try #require(lines.count >= 2)
        var exchange = try #require(try JSONParser.parse(lines[1]).objectValue)
        var request = try #require(exchange["request"]?.objectValue)
        request["pad"] = .string(String(repeating: "x", count: padding))
        exchange["request"] = .object(request)
        var bytes = lines[0] + [0x0A]
        CanonicalJSON.writeCompact(.object(exchange), into: &bytes)
        bytes.append(0x0A)
        for line in lines.dropFirst(2) { bytes += line + [0x0A] }
        return (lines[0].count, bytes)
    }

    /// Exit 64 and exactly one `accord: error: FILE:2: line longer than …` line.
    private func expectLineError(_ result: AccordBinary.Result, file: String, line: Int, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(result.status == 64, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            lines.first?.hasPrefix("accord: error: \(file):\(line): line longer than 4096 bytes") == true, "stderr: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Stack dump") && !result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
    }

    @Test("check, convert and run refuse a second line over --max-line with exit 64 and one line naming file and line")
    func longSecondLine() async throws {
        let (header, bytes) = try Self.recording(padding: 10_000)
        try #require(header < 4096)
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        expectLineError(try await AccordBinary.run(["check", file, "--max-line", "4096"]), file: file, line: 2)
        expectLineError(try await AccordBinary.run(["check", file, "--max-line", "4K"]), file: file, line: 2)
        let har = folder.appendingPathComponent("out.har").path
        expectLineError(try await AccordBinary.run(["convert", file, har, "--max-line", "4096"]), file: file, line: 2)
        #expect(!FileManager.default.fileExists(atPath: har))
        expectLineError(try await AccordBinary.run(["run", "--server", "embedded", file, "--max-line", "4096"]), file: file, line: 2)

        // Under the default cap the same recording is read (the padding may be a finding, exit 1).
        let passed = try await AccordBinary.run(["check", file])
        #expect(passed.status != 64, "stderr: \(passed.stderr)")
    }

    @Test("a transcript larger than --max-line is refused whole, and a bad --max-line is a usage error")
    func transcriptAndUsage() async throws {
        let transcript = AccordBinary.sharedCorpus + "/transcripts/pull/002-keyset-pagination.json"
        let result = try await AccordBinary.run(["check", transcript, "--max-line", "100"])
        #expect(result.status == 64)
        #expect(result.stderr == "accord: error: \(transcript): larger than 100 bytes (the --max-line cap); not read\n")
        for bad in ["0", "-1", "12x", "", "K"] {
            let usage = try await AccordBinary.run(["check", transcript, "--max-line", bad])
            #expect(usage.status == 64, "\(bad): \(usage.stderr)")
            #expect(usage.stderr.contains("--max-line takes a positive number of bytes"), "\(bad): \(usage.stderr)")
        }
    }
}
