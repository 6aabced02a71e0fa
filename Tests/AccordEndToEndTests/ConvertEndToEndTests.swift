import Foundation
import Testing

/// `accord convert` through the binary: formats by extension, outputs the other commands accept.
@Suite("accord convert")
struct ConvertEndToEndTests {
    @Test("transcript → recording → HAR → transcript, and accord check accepts the result")
    func chain() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/pull/002-keyset-pagination.json"
        let recording = folder.appendingPathComponent("s.jsonl").path
        let har = folder.appendingPathComponent("s.har").path
        let transcript = folder.appendingPathComponent("s.json").path
        let first = try await AccordBinary.run(["convert", source, recording])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("step 1 server: not an rpc step, not recorded"), "\(first.stderr)")
        #expect(try await AccordBinary.run(["convert", recording, har]).status == 0)
        let harText = try String(contentsOfFile: har, encoding: .utf8)
        #expect(harText.contains("\"version\": \"1.2\""))
        #expect(!harText.lowercased().contains("bearer"))
        let last = try await AccordBinary.run(["convert", har, transcript, "--case", "pull/902-from-har"])
        #expect(last.status == 0, "\(last.stderr)")
        let check = try await AccordBinary.run(["check", transcript])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8).contains("\"case\": \"pull/902-from-har\""))
    }

    @Test("--from and --to override the extensions")
    func explicitFormats() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"
        let out = folder.appendingPathComponent("traffic.log").path
        #expect(try await AccordBinary.run(["convert", source, out, "--to", "recording"]).status == 0)
        let back = folder.appendingPathComponent("back.txt").path
        #expect(try await AccordBinary.run(["convert", out, back, "--from", "recording", "--to", "transcript"]).status == 0)
        #expect(try await AccordBinary.run(["check", back]).status == 0)
    }

    @Test("milliseconds no recording can hold exit 64 naming file, line and pointer, in convert and check")
    func unrecordableMilliseconds() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"
        let recording = folder.appendingPathComponent("r.jsonl").path
        #expect(try await AccordBinary.run(["convert", source, recording]).status == 0)
        var lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map(String.init)
        let range = try #require(lines[1].range(of: #""at_ms":[0-9.]+"#, options: .regularExpression))
        lines[1].replaceSubrange(range, with: #""at_ms":1e400"#)
        let bad = folder.appendingPathComponent("bad.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let expected = "\(bad):2: /at_ms: expected a number of milliseconds of at most 9e15 in magnitude, found 1e400"
        for arguments in [["convert", bad, folder.appendingPathComponent("r.har").path], ["check", bad]] {
            let result = try await AccordBinary.run(arguments)
            #expect(result.status == 64, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments[0]): \(result.stderr)")
        }
    }

    @Test("usage errors exit 64: unknown extension, same file, bad case id, bad format name, missing input")
    func usage() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"
        #expect(try await AccordBinary.run(["convert", source, folder.appendingPathComponent("x.txt").path]).status == 64)
        #expect(try await AccordBinary.run(["convert", source, source]).status == 64)
        let out = folder.appendingPathComponent("x.json").path
        #expect(try await AccordBinary.run(["convert", source, out, "--to", "transcript", "--case", "Bad Id"]).status == 64)
        #expect(try await AccordBinary.run(["convert", source, out, "--to", "xml"]).status == 64)
        #expect(try await AccordBinary.run(["convert", folder.appendingPathComponent("none.json").path, out]).status == 64)
        #expect(try await AccordBinary.run(["convert", source]).status == 64)
    }
}
