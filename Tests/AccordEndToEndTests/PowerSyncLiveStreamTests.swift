import AccordTestSupport
import Foundation
import JSON
import Testing

/// The reference PowerSync client on a live sync stream: `accord driver --profile powersync`
/// attached to `accord serve --profile powersync --fixtures`, `sync` with `"follow": true`
/// keeping the stream open, and the source side moved through the fixture endpoint while the
/// client reads (docs/driver-protocol.md §11, docs/powersync.md).
@Suite("the reference PowerSync client follows a live sync stream", .serialized)
struct PowerSyncLiveStreamTests {
    static let secret = "live-e2e-secret"

    /// `accord driver --profile powersync`, one request line at a time, each answer read back.
    final class Driver {
        let process = ChildProcess()
        let input = Pipe()
        let output = Pipe()
        var next = 1

        init() throws {
            process.executableURL = URL(fileURLWithPath: AccordBinary.path)
            process.arguments = ["driver", "--profile", "powersync"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Sends one op with `members` and returns its answer line, parsed.
        func send(_ op: String, _ members: JSONObject = JSONObject()) throws -> JSONValue {
            var request = members
            request["id"] = .number(JSONNumber(next))
            request["op"] = .string(op)
            next += 1
            try input.fileHandleForWriting.write(contentsOf: Data((CanonicalJSON.compact(.object(request)) + "\n").utf8))
            return try JSONParser.parse(Array(try RecordTimeoutTests.firstLine(output).utf8))
        }

        /// Closes the session and waits for the driver to exit.
        func close() throws -> Int32 {
            _ = try send("close")
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    /// POSTs a fixture call to the service; returns the HTTP status.
    static func fixture(_ port: Int, _ call: String, _ body: JSONValue) throws -> Int {
        try JWTCommandTests.curl([
            "-X", "POST", "http://127.0.0.1:\(port)/accord/powersync/\(call)", "-H", "Content-Type: application/json", "-d",
            CanonicalJSON.compact(body),
        ])
    }

    /// A replicated source commit of `changes`.
    static func commit(_ port: Int, _ changes: [JSONValue], replicated: Bool = true) throws -> Int {
        try fixture(port, "source", ["changes": .array(changes), "replicated": .bool(replicated)])
    }

    static func put(_ id: String, _ title: String, checksum: Int) -> JSONValue {
        [
            "put": [
                "bucket": "user-ada-todos", "object_type": "todos", "object_id": .string(id),
                "data": .string(#"{"title":"\#(title)"}"#), "checksum": .number(JSONNumber(checksum)),
            ]
        ]
    }

    @Test(
        "a commit made after the driver opened the live stream is applied live, a later checkpoint request resolves live, one the service cannot cover yet times out, and a request survives a disconnect to resolve after reconnect"
    )
    func followsTheLiveStream() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret, "--fixtures"])
        let token = try await JWTCommandTests.mint(["--secret", Self.secret, "--sub", "user-ada"])
        let port = served.port
        #expect(try Self.fixture(port, "reset", [:]) == 204)
        #expect(try Self.commit(port, [["grant": ["bucket": "user-ada-todos", "user_id": "user-ada"]]]) == 204)

        let driver = try Driver()
        _ = try driver.send("hello", ["protocol": "accord-driver/1"])
        let attached = try driver.send(
            "attach",
            [
                "store": .string(folder.appendingPathComponent("store").path), "base_url": .string("http://127.0.0.1:\(port)"),
                "token": .string(token), "user_id": "user-ada", "client_id": "client-ada-phone", "checkpoint_mode": "requests",
            ])
        #expect(attached["result"] == [:], "\(attached)")
        let followed = try driver.send("sync", ["follow": true])
        #expect(followed["result"] == ["lines": 1], "\(followed)")

        // The source side moves while the stream is open: the client applies it as it arrives.
        #expect(try Self.commit(port, [Self.put("t1", "a", checksum: 5)]) == 204)
        // The live stream's connect reconciled the counter at 1 (answered 1), so the app's first request is 2.
        let first = try driver.send("request-checkpoint")
        #expect(first["result"] == ["checkpoint_request_id": "2"], "\(first)")
        let resolved = try driver.send("wait-for-sync", ["checkpoint_request_id": "2", "timeout_ms": 10000])
        #expect(resolved["result"] == ["outcome": "resolved"], "\(resolved)")
        let state = try driver.send("client-state", ["tables": ["todos"]])
        #expect(state["result"]?["rows"] == ["todos": ["t1": ["title": "a"]]], "\(state)")
        #expect(state["result"]?["requests"] == ["2": "synced"], "\(state)")
        #expect(state["result"]?["last_checkpoint"] == "1", "\(state)")

        // A request no checkpoint covers yet (its position is a commit not replicated): the wait
        // ends at its timeout.
        #expect(try Self.commit(port, [Self.put("t2", "b", checksum: 6)], replicated: false) == 204)
        let second = try driver.send("request-checkpoint")
        #expect(second["result"] == ["checkpoint_request_id": "3"], "\(second)")
        let timedOut = try driver.send("wait-for-sync", ["checkpoint_request_id": "3", "timeout_ms": 300])
        #expect(timedOut["result"] == ["outcome": "timeout"], "\(timedOut)")

        // Disconnected, the wait fails; the replication made meanwhile arrives once reconnected.
        _ = try driver.send("disconnect")
        let away = try driver.send("wait-for-sync", ["checkpoint_request_id": "3", "timeout_ms": 10000])
        #expect(away["result"] == ["outcome": "disconnected"], "\(away)")
        #expect(try Self.fixture(port, "replicate", [:]) == 204)
        _ = try driver.send("reconnect")
        let back = try driver.send("wait-for-sync", ["checkpoint_request_id": "3", "timeout_ms": 10000])
        #expect(back["result"] == ["outcome": "resolved"], "\(back)")
        let after = try driver.send("client-state", ["tables": ["todos"]])
        #expect(after["result"]?["rows"] == ["todos": ["t1": ["title": "a"], "t2": ["title": "b"]]], "\(after)")
        #expect(after["result"]?["last_checkpoint"] == "2", "\(after)")

        #expect(try driver.close() == 0)
        #expect(served.stop().status == 0)
    }

    @Test(
        "on a live stream that stops after a partial completion at priority 0, the client applies that priority's bucket alone, and a wait on the checkpoint's write checkpoint does not resolve"
    )
    func appliesAPartialCompletionLive() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = [
            #"{"checkpoint":{"last_op_id":"2","write_checkpoint":"2","buckets":[{"bucket":"user-ada-urgent","checksum":9,"count":1,"priority":0},{"bucket":"user-ada-todos","checksum":5,"count":2}]}}"#,
            #"{"data":{"bucket":"user-ada-urgent","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"PUT","object_type":"todos","object_id":"u1","data":"{\"title\":\"pager\"}","checksum":9}]}}"#,
            #"{"partial_checkpoint_complete":{"last_op_id":"2","priority":0}}"#,
            #"{"data":{"bucket":"user-ada-todos","after":"0","next_after":"2","has_more":true,"data":[{"op_id":"2","op":"PUT","object_type":"todos","object_id":"t1","data":"{\"title\":\"a\"}","checksum":2}]}}"#,
        ]
        let driver = [
            #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"#,
            CanonicalJSON.compact([
                "id": 2, "op": "attach", "store": .string(folder.appendingPathComponent("store").path), "base_url": "{proxy}",
                "token": "t", "user_id": "user-ada", "client_id": "client-ada-phone", "checkpoint_mode": "requests",
            ]),
            #"{"id":3,"op":"request-checkpoint"}"#, #"{"follow":true,"id":4,"op":"sync"}"#,
            #"{"checkpoint_request_id":"2","id":5,"op":"wait-for-sync","timeout_ms":1000}"#,
            #"{"id":6,"op":"client-state","tables":["todos"]}"#,
        ]
        let session = try await PowerSyncUpstream.run(
            answers: [
                // The reconcile before the request, the request, the reconcile before the stream.
                .init(path: "/sync/checkpoint-request", body: ["data": ["checkpoint_request_id": "1"]]),
                .init(path: "/sync/checkpoint-request", body: ["data": ["checkpoint_request_id": "2"]]),
                .init(path: "/sync/checkpoint-request", body: ["data": ["checkpoint_request_id": "2"]]),
                .init(path: "/sync/stream", lines: lines, holdOpen: true),
            ],
            calls: [.init(method: "POST", target: "/sync/checkpoint-request", leaveOpenAfterLines: 6, driver: driver)], folder: folder)
        let answers = try session.answers[0].split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        try #require(answers.count == 6, "\(session.answers)")
        #expect(answers[3]["result"] == ["lines": 1], "\(answers[3])")
        #expect(answers[4]["result"] == ["outcome": "timeout"], "a partial completion syncs no request: \(answers[4])")
        let state = answers[5]["result"]
        #expect(state?["rows"] == ["todos": ["u1": ["title": "pager"]]], "priority 0 applied alone: \(answers[5])")
        #expect(state?["last_checkpoint"] == .null, "\(answers[5])")
        #expect(state?["requests"] == ["2": "pending"], "\(answers[5])")
    }
}
