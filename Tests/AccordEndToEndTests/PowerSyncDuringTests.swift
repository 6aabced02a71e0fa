import Foundation
import JSON
import Testing

/// A PowerSync session recorded with `accord record --profile powersync`: the header names the
/// profile, the stream keeps when each line arrived (`line_ms`), and a source commit made while
/// the stream was open converts to a `during` step at the line it followed, which the server
/// lane replays green.
@Suite("a source commit made during an open stream", .serialized)
struct PowerSyncDuringTests {
    static let secret = "during-e2e-secret"

    @Test(
        "recorded with --profile powersync, the header says powersync, the stream has line_ms, the commit made after its first checkpoint is a during step after NDJSON line 3, and the recording replays green"
    )
    func duringStep() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret, "--fixtures"])
        let token = try await JWTCommandTests.mint(["--secret", Self.secret, "--sub", "user-ada"])
        func put(_ id: String, checksum: Int) -> JSONValue {
            [
                "put": [
                    "bucket": "user-ada-todos", "object_type": "todos", "object_id": .string(id), "data": #"{"title":"a"}"#,
                    "checksum": .number(JSONNumber(checksum)),
                ]
            ]
        }
        let grant: JSONValue = ["grant": ["bucket": "user-ada-todos", "user_id": "user-ada"]]
        let stream: JSONValue = ["buckets": [], "client_id": "client-ada-phone", "include_checksum": true, "raw_data": true]
        let calls: [PowerSyncUpstream.Call] = [
            .init(method: "POST", target: "/accord/powersync/reset", body: [:]),
            .init(
                method: "POST", target: "/accord/powersync/source", body: ["changes": [grant, put("t1", checksum: 3)], "replicated": true]),
            // checkpoint, data, checkpoint_complete (no token_expires_in while the token is valid,
            // as PowerSync's service): then the commit, while it is open.
            .init(
                method: "POST", target: "/sync/stream", body: stream, headers: ["Authorization: Token \(token)"], leaveOpenAfterLines: 3),
            .init(method: "POST", target: "/accord/powersync/source", body: ["changes": [put("t2", checksum: 5)], "replicated": true]),
        ]
        let session = try await PowerSyncUpstream.recording(
            upstream: "http://127.0.0.1:\(served.port)", calls: calls, folder: folder, options: ["--profile", "powersync"])
        #expect(served.stop().status == 0)
        #expect(session.status == 0)
        let header = try JSONParser.parse(try #require(session.recording.split(separator: "\n").first.map(String.init)))
        #expect(header["protocol"] == "powersync")
        let exchanges = try PowerSyncRecordTests.exchanges(in: session.recording)
        // The stream is written when it closes, after the commit made during it.
        #expect(
            exchanges.map(\.path) == ["/accord/powersync/reset", "/accord/powersync/source", "/accord/powersync/source", "/sync/stream"])
        let lines = try #require(exchanges.last?.response.arrayValue)
        let arrivals = try #require(exchanges.last?.lineMilliseconds)
        #expect(arrivals.count == lines.count && arrivals == arrivals.sorted(), "\(arrivals)")
        #expect(lines.count == 6 && lines[3]["checkpoint_diff"] != nil, "the diff of the commit: \(lines)")

        let recording = folder.appendingPathComponent("session.jsonl").path
        let transcript = folder.appendingPathComponent("session.json").path
        let converted = try await AccordBinary.run(["convert", recording, transcript])
        #expect(converted.status == 0, "\(converted.stdout)\(converted.stderr)")
        let steps = try #require(RecordingFileJSON.read(transcript)["steps"]?.arrayValue)
        #expect(steps.map { $0["kind"]?.stringValue ?? "" } == ["source", "sync-stream", "source"])
        #expect(steps.last?["during"]?["step"] == 2 && steps.last?["during"]?["after_line"] == 3, "\(steps)")

        // HAR carries the arrivals in the entry's _accord member, so a round trip keeps the step.
        let har = folder.appendingPathComponent("session.har").path
        let back = folder.appendingPathComponent("back.jsonl").path
        #expect(try await AccordBinary.run(["convert", recording, har]).status == 0)
        #expect(try await AccordBinary.run(["convert", har, back]).status == 0)
        let again = try PowerSyncRecordTests.exchanges(in: try String(contentsOfFile: back, encoding: .utf8))
        #expect(again.last?.lineMilliseconds == arrivals)

        // A recording made before line_ms keeps the commit in file order, before the stream.
        let old = folder.appendingPathComponent("old.jsonl")
        let stripped = session.recording.replacing(#/,"line_ms":\[[0-9.,]*\]/#, with: "")
        try #require(stripped != session.recording)
        try Data(stripped.utf8).write(to: old)
        let oldTranscript = folder.appendingPathComponent("old.json").path
        #expect(try await AccordBinary.run(["convert", old.path, oldTranscript]).status == 0)
        let oldSteps = try #require(RecordingFileJSON.read(oldTranscript)["steps"]?.arrayValue)
        #expect(oldSteps.map { $0["kind"]?.stringValue ?? "" } == ["source", "source", "sync-stream"])

        let check = try await AccordBinary.run(["check", recording])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let replay = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("1 case (1 passed, 0 failed, 0 skipped)"), "\(replay.stdout)")
        #expect(replay.stdout.contains("0 failed, 0 skipped, 0 errors"), "\(replay.stdout)")
    }

    @Test("a recording whose header says powersync is read with the PS rules only: a pull in it is skipped, not judged by KizunaSync's")
    func headerProfile() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pull.jsonl")
        let text = """
            {"accord_recording":1,"protocol":"powersync","redaction":{"enabled":true},"started_at":"2026-12-02T13:59:00Z","tool":"accord 0.1.0","upstream":"http://127.0.0.1:9"}
            {"exchange":1,"at_ms":1,"duration_ms":1,"http":{"method":"POST","path":"/rest/v1/rpc/pull","request_headers":{},"response_headers":{},"status":200},"identity":{"client":"c-1","user":"u-1"},"request":{},"response":{},"rpc":"pull"}

            """
        try Data(text.utf8).write(to: path)
        let check = try await AccordBinary.run(["check", path.path, "--json", folder.appendingPathComponent("r.json").path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stdout.contains("1 steps: 0 passed, 0 failed, 1 skipped")
                || check.stdout.contains("1 step: 0 passed, 0 failed, 1 skipped"))
        let report = try String(contentsOfFile: folder.appendingPathComponent("r.json").path, encoding: .utf8)
        #expect(report.contains("the recording's header says powersync"), "\(report)")
    }
}

/// Reads a JSON file the test wrote.
enum RecordingFileJSON {
    static func read(_ path: String) throws -> JSONValue {
        try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}
