import Foundation
import JSON
import Testing

/// The whole PowerSync loop on loopback: `accord serve --profile powersync --fixtures`, `accord
/// record` in front of it, a session through the proxy (the fixture calls that set a case's
/// source side, the reference client's checkpoint request, and its own live sync stream), and
/// the recording checked offline and
/// replayed in both live lanes.
@Suite("a recorded PowerSync session replays in both lanes", .serialized)
struct PowerSyncSessionReplayTests {
    static let secret = "session-e2e-secret"

    /// The session's calls: reset and 001's source step through the fixture endpoint, then `accord driver --profile powersync` attached to the proxy making its
    /// checkpoint request and following the live sync stream (`sync` with `"follow": true`,
    /// docs/driver-protocol.md §11) until its wait resolves; the driver is left running, the
    /// stream open, until the recorder's SIGINT.
    static func calls(token: String, store: String) throws -> [PowerSyncUpstream.Call] {
        let path = PowerSyncCheckTests.folder + "/transcripts/001-initial-sync-completes.json"
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let source = try #require(json["steps"]?.arrayValue?.first)
        try #require(source["kind"] == "source")
        let changes = source["changes"]?.arrayValue ?? []
        return [
            .init(method: "POST", target: "/accord/powersync/reset", body: [:]),
            .init(
                method: "POST", target: "/accord/powersync/source",
                body: ["changes": .array(changes), "replicated": source["replicated"] ?? true]),
            // The reference client itself, attached to the proxy in requests mode: its reconcile
            // and its checkpoint request, then its reconcile and live stream (checkpoint, two data lines, checkpoint_complete: no token_expires_in
            // while the token is valid, as PowerSync's service), its wait resolving once the
            // stream delivered.
            .init(
                method: "POST", target: "/sync/checkpoint-request", leaveOpenAfterLines: 4,
                driver: [
                    #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"#,
                    CanonicalJSON.compact([
                        "id": 2, "op": "attach", "store": .string(store), "base_url": "{proxy}", "token": .string(token),
                        "user_id": "user-ada", "client_id": "client-ada-phone", "checkpoint_mode": "requests",
                    ]),
                    #"{"id":3,"op":"request-checkpoint"}"#, #"{"follow":true,"id":4,"op":"sync"}"#,
                    #"{"checkpoint_request_id":"2","id":5,"op":"wait-for-sync","timeout_ms":10000}"#,
                ]),
        ]
    }

    @Test(
        "a session recorded in front of accord serve --profile powersync passes accord check, replays green in the server lane (embedded and over HTTP) and the client lane, and a hand-broken copy fails at its rule and NDJSON line"
    )
    func recordedSessionReplays() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret, "--fixtures"])
        let token = try await JWTCommandTests.mint(["--secret", Self.secret, "--sub", "user-ada"])
        let session = try await PowerSyncUpstream.recording(
            upstream: "http://127.0.0.1:\(served.port)",
            calls: try Self.calls(token: token, store: folder.appendingPathComponent("store").path), folder: folder)
        #expect(served.stop().status == 0)
        #expect(session.status == 0)
        #expect(!session.recording.contains(token), "the bearer token is redacted")
        let recording = folder.appendingPathComponent("session.jsonl").path
        let exchanges = try PowerSyncRecordTests.exchanges(in: session.recording)
        #expect(
            exchanges.map(\.path) == [
                "/accord/powersync/reset", "/accord/powersync/source", "/sync/checkpoint-request", "/sync/checkpoint-request",
                "/sync/checkpoint-request", "/sync/stream",
            ])
        #expect(session.answers[2].contains(#"{"id":3,"result":{"checkpoint_request_id":"2"}}"#), "\(session.answers[2])")
        #expect(session.answers[2].contains(#"{"id":4,"result":{"lines":1}}"#), "\(session.answers[2])")
        #expect(session.answers[2].contains(#"{"id":5,"result":{"outcome":"resolved"}}"#), "\(session.answers[2])")
        #expect(exchanges[2].request == ["checkpoint_request_id": "1", "client_id": "client-ada-phone"])
        let lines = try #require(exchanges.last?.response.arrayValue)
        #expect(
            lines.count == 4 && lines.first?["checkpoint"] != nil && lines.last?["checkpoint_complete"] == ["last_op_id": "4"],
            "\(lines)")

        let check = try await AccordBinary.run(["check", recording])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("6 steps: 4 passed, 0 failed, 2 skipped"), "\(check.stdout)")

        let embedded = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(embedded.status == 0, "\(embedded.stdout)\(embedded.stderr)")
        #expect(embedded.stdout.contains("1 case (1 passed, 0 failed, 0 skipped), 4 steps: 4 passed, 0 failed"), "\(embedded.stdout)")

        let again = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret, "--fixtures"])
        let overHTTP = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(again.port)", "--jwt-secret", Self.secret, recording,
        ])
        #expect(again.stop().status == 0)
        #expect(overHTTP.status == 0, "\(overHTTP.stdout)\(overHTTP.stderr)")
        #expect(overHTTP.stdout.contains("4 steps: 4 passed, 0 failed"), "\(overHTTP.stdout)")

        let client = try await AccordBinary.run(["run", "--client", "\(AccordBinary.path) driver --profile powersync", recording])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        #expect(client.stdout.contains("1 case (1 passed, 0 failed, 0 skipped), 4 steps: 4 passed, 0 failed"), "\(client.stdout)")

        // Under the kill matrix the recorded checkpoint request is the client's own, so the
        // session reaches all three seams of the reference client.
        let killed = try await AccordBinary.run([
            "run", "--client", "\(AccordBinary.path) driver --profile powersync", "--kill-matrix", recording,
        ])
        #expect(killed.status == 0, "\(killed.stdout)\(killed.stderr)")
        #expect(killed.stdout.contains("3 cases (3 passed, 0 failed, 0 skipped), 15 steps: 15 passed, 0 failed"), "\(killed.stdout)")

        // A stale complete, by hand: the recorded answer says 3 where the service says 4.
        let broken = folder.appendingPathComponent("broken.jsonl").path
        let stale = session.recording.replacingOccurrences(
            of: #"{"checkpoint_complete":{"last_op_id":"4"}}"#, with: #"{"checkpoint_complete":{"last_op_id":"3"}}"#)
        try #require(stale != session.recording)
        try Data(stale.utf8).write(to: URL(fileURLWithPath: broken))
        let offline = try await AccordBinary.run(["check", broken])
        #expect(offline.status == 1)
        #expect(offline.stdout.contains("exchange 6 sync-stream NDJSON line 4"), "\(offline.stdout)")
        #expect(offline.stdout.contains("PS-COMPLETE"), "\(offline.stdout)")
        let replayed = try await AccordBinary.run(["run", "--server", "embedded", broken])
        #expect(replayed.status == 1, "\(replayed.stdout)")
        #expect(
            replayed.stdout.contains("step 5 sync-stream NDJSON line 4: AC-GOLDEN")
                && replayed.stdout.contains("(at /checkpoint_complete/last_op_id)"),
            "\(replayed.stdout)")
    }

    @Test(
        "a session whose source changes went straight to the service, not through the recorder, replays green in both lanes with no flag: its source side is inferred from the stream"
    )
    func sourceInferredFromTheStream() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret, "--fixtures"])
        let token = try await JWTCommandTests.mint(["--secret", Self.secret, "--sub", "user-ada"])
        // The source database is written directly, as an app's backend writes a live service's.
        #expect(try PowerSyncLiveStreamTests.fixture(served.port, "reset", [:]) == 204)
        let changes: [JSONValue] = [
            ["grant": ["bucket": "user-ada-todos", "user_id": "user-ada"]],
            ["grant": ["bucket": "global-news", "user_id": "user-ada", "priority": 1]],
            PowerSyncLiveStreamTests.put("t1", "a", checksum: 5),
            ["put": ["bucket": "global-news", "object_type": "news", "object_id": "n1", "data": #"{"title":"hi"}"#, "checksum": 7]],
            PowerSyncLiveStreamTests.put("t2", "b", checksum: 4294967295),
        ]
        #expect(try PowerSyncLiveStreamTests.commit(served.port, changes) == 204)
        let all = try Self.calls(token: token, store: folder.appendingPathComponent("store").path)
        let session = try await PowerSyncUpstream.recording(
            upstream: "http://127.0.0.1:\(served.port)", calls: all.filter { !$0.target.hasPrefix("/accord/") }, folder: folder,
            options: ["--profile", "powersync"])
        #expect(served.stop().status == 0)
        #expect(session.status == 0)
        let recording = folder.appendingPathComponent("session.jsonl").path
        let exchanges = try PowerSyncRecordTests.exchanges(in: session.recording)
        #expect(!exchanges.contains { $0.path.hasPrefix("/accord/") }, "no fixture call was recorded: \(exchanges.map(\.path))")
        #expect(exchanges.last?.path == "/sync/stream")

        let check = try await AccordBinary.run(["check", recording])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let embedded = try await AccordBinary.run(["run", "--server", "embedded", recording])
        #expect(embedded.status == 0, "\(embedded.stdout)\(embedded.stderr)")
        #expect(embedded.stdout.contains("0 failed"), "\(embedded.stdout)")
        let client = try await AccordBinary.run(["run", "--client", "\(AccordBinary.path) driver --profile powersync", recording])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        #expect(client.stdout.contains("0 failed, 0 skipped"), "\(client.stdout)")
        // The converted transcript states the inferred commit before the stream.
        let transcript = folder.appendingPathComponent("t.json").path
        let converted = try await AccordBinary.run(["convert", recording, transcript])
        #expect(
            converted.stderr.contains("no fixture calls: the source side is inferred from the streams, 1 commit(s)"), "\(converted.stderr)")
    }
}
