import Corpus
import Foundation
import JSON
import Testing

/// Recordings replayed through the binary: converted from corpus transcripts, sent to the
/// embedded server (`run --server`), served to the reference client (`run --client`) and
/// checked offline (`check`).
@Suite("accord run on recordings")
struct ReplayEndToEndTests {
    /// Converts a corpus transcript into a recording in a fresh folder with `accord convert`.
    static func converted(_ transcript: String, name: String = "session.jsonl") async throws -> (URL, String) {
        let folder = try AccordBinary.temporaryFolder()
        let source =
            transcript.hasPrefix("Conformance/")
            ? AccordBinary.packageRoot + "/" + transcript : AccordBinary.sharedCorpus + "/transcripts/\(transcript).json"
        let out = folder.appendingPathComponent(name).path
        let result = try await AccordBinary.run(["convert", source, out])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return (folder, out)
    }

    @Test("a converted corpus case replays green in the server lane, the client lane and the offline check")
    func greenInEveryLane() async throws {
        let (folder, recording) = try await Self.converted("push/008-composite-key-writes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("server.xml").path
        let server = try await AccordBinary.run(["run", "--server", "embedded", recording, "--junit", junit])
        #expect(server.status == 0, "\(server.stdout)\(server.stderr)")
        #expect(server.stdout.contains("4 steps: 4 passed"), "\(server.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("exchange 4 push (client …0001)"))
        #expect(xml.contains("exchange 10 pull (client …0001)"))
        let client = try await AccordBinary.run(["run", "--client", "accord driver", recording])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        #expect(client.stdout.contains("7 steps: 7 passed"), "\(client.stdout)")
        let check = try await AccordBinary.run(["check", recording])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("two sessions share one target: another user's replay of a mutation id is refused live as recorded")
    func sessionsShareTheTarget() async throws {
        let (folder, recording) = try await Self.converted("Conformance/transcripts/push/903-replay-by-another-user-rls-denied.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(server.status == 0, "\(server.stdout)\(server.stderr)")
        let client = try await AccordBinary.run(["run", "--client", "accord driver", recording])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
    }

    @Test("an edited recorded response diverges in the server lane, named by exchange and pointer")
    func editedResponseDiverges() async throws {
        let (folder, recording) = try await Self.converted("push/008-composite-key-writes")
        defer { try? FileManager.default.removeItem(at: folder) }
        var contents = try RecordingContents(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: recording))), file: recording)
        // A well-formed answer the service never gave: the update refused PRECONDITION, the row as the
        // insert before it left it. Nothing outside the recording can explain the refusal, since the
        // update carries no precondition, so the server that applies it diverges there.
        let row: JSONValue = ["hall": 1, "holder": "ada", "owner_id": "00000000-0000-4000-8000-a10000000001", "seat": 12]
        let refused: JSONValue = [
            "mutation_id": "00000000-0000-4000-8000-f10000000002", "reason": "PRECONDITION", "server_row": row, "verdict": "rejected",
        ]
        contents.exchanges[0].response = contents.exchanges[0].response.replacing(
            at: JSONPointer(tokens: ["verdicts", "1"]), with: refused)
        try Data(contents.bytes).write(to: URL(fileURLWithPath: recording))
        let server = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(server.status == 1)
        #expect(
            server.stdout.contains("exchange 4 push: AC-GOLDEN the live response diverges from the recorded one at /verdicts/1/"),
            "\(server.stdout)")
    }

    @Test("a recorded answer that breaks a rule is the recorded service's failure, not the build's")
    func brokenRecordingBlamesTheRecording() async throws {
        let (folder, recording) = try await Self.converted("push/008-composite-key-writes")
        defer { try? FileManager.default.removeItem(at: folder) }
        var contents = try RecordingContents(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: recording))), file: recording)
        // Two verdicts in the wrong order: the recorded service broke I-5.
        let verdicts = try #require(contents.exchanges[0].response["verdicts"]?.arrayValue)
        contents.exchanges[0].response = contents.exchanges[0].response.replacing(
            at: JSONPointer(tokens: ["verdicts"]), with: .array(verdicts.reversed()))
        try Data(contents.bytes).write(to: URL(fileURLWithPath: recording))
        let server = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(server.status == 1)
        #expect(server.stdout.contains("exchange 4 push (line 2): the recorded answer breaks I-5"), "\(server.stdout)")
        #expect(server.stdout.contains("the recorded service's fault"), "\(server.stdout)")
        #expect(server.stdout.contains("1 failed"), "only the broken exchange fails: \(server.stdout)")
    }

    @Test("the client lane catches a seeded driver fault through a recording (a resend with a fresh id)")
    func clientFaultIsCaught() async throws {
        let (folder, recording) = try await Self.converted("push/003-replay-returns-recorded-verdicts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let green = try await AccordBinary.run(["run", "--client", "accord driver", recording])
        #expect(green.status == 0, "\(green.stdout)\(green.stderr)")
        let page = folder.appendingPathComponent("broken.html")
        let broken = try await AccordBinary.run([
            "run", "--client", "accord driver --fault new-id-on-resend", recording, "--html", page.path,
        ])
        #expect(broken.status == 1, "\(broken.stdout)")
        #expect(broken.stdout.contains("exchange 4 push (client …0001): CL-RESEND"), "\(broken.stdout)")
        // The picture draws the request the driver sent, the recorded one beside it.
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("live: {") && html.contains("golden: {"), "the resent push is drawn as sent, beside the recorded one")
    }

    @Test("a recording that is not valid is an input error, exit 64")
    func badRecording() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.jsonl")
        try Data("{\"accord_recording\":1}\n".utf8).write(to: file)
        #expect(try await AccordBinary.run(["run", "--server", "embedded", file.path]).status == 64)
    }
}
