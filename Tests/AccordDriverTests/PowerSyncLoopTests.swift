import AccordDriver
import Corpus
import JSON
import PowerSyncWire
import Testing

/// A PowerSync client in memory: enough to show the loop's §11 ops, profile and order.
actor ToyPowerSyncClient: PowerSync.EngineDriver {
    var queue: [PowerSync.LocalWrite] = []
    var counter = 0
    var requests: [String: Bool] = [:]

    func hello() async -> HelloResult { HelloResult(name: "toy-powersync", version: "0.1.0", capabilities: []) }
    func attach(_ request: AttachRequest) async throws {}
    func localWrite(_ write: PowerSync.LocalWrite) async throws -> Int {
        queue.append(write)
        return queue.count
    }
    func upload() async throws -> UploadResult {
        defer { queue.removeAll() }
        return UploadResult(entries: queue.count)
    }
    func sync() async throws -> SyncResult { SyncResult(lines: 0) }
    func follow() async throws -> SyncResult { SyncResult(lines: 1) }
    func requestCheckpoint() async throws -> String {
        counter += 1
        requests[String(counter)] = false
        return String(counter)
    }
    func waitForSync(_ request: WaitRequest) async throws -> PowerSync.WaitOutcome {
        guard let synced = requests[request.checkpointRequestID] else { throw EngineError(.unknownRequest, "no such request") }
        return synced ? .resolved : .timeout
    }
    func disconnect() async throws {}
    func reconnect() async throws {}
    func localReset() async throws { counter = 0 }
    func clientState(tables: [String]?) async throws -> ClientStateResult {
        ClientStateResult(rows: ["todos": ["t1": ["title": "a"]]], pendingUploads: queue.count, lastCheckpoint: nil, requests: requests)
    }
    func close() async throws {}
}

@Suite("DriverLoop with a PowerSync client (§11)")
struct PowerSyncLoopTests {
    static func session(_ lines: [String]) async -> [JSONValue] {
        let requests = DriverPipe()
        let responses = DriverPipe()
        requests.send(Array(lines.map { $0 + "\n" }.joined().utf8))
        requests.finish()
        _ = await DriverLoop.run(powerSync: ToyPowerSyncClient(), input: requests.reader(), output: responses)
        responses.finish()
        var reader = DriverLineReader(responses.reader())
        var answers: [JSONValue] = []
        while let line = await reader.next() {
            if case .line(let bytes) = line { answers.append((try? JSONParser.parse(bytes)) ?? .null) }
        }
        return answers
    }

    @Test("a PowerSync session: hello says the profile, and each op answers in its documented shape")
    func session() async throws {
        let attach = AttachRequest(store: "/tmp/ps.sqlite", baseURL: "http://127.0.0.1:1", token: "t", userID: "user-ada", clientID: "c1")
        let write = PowerSync.LocalWrite(op: .put, table: "todos", id: "t1", data: ["title": "a"])
        let requests: [DriverRequest] = [
            .hello(id: 1), DriverRequest(id: 2, .powerSync(.attach(attach))), DriverRequest(id: 3, .powerSync(.localWrite(write))),
            DriverRequest(id: 4, .powerSync(.requestCheckpoint)),
            DriverRequest(id: 5, .powerSync(.waitForSync(WaitRequest(checkpointRequestID: "1", timeoutMilliseconds: 5)))),
            DriverRequest(id: 6, .powerSync(.upload)), DriverRequest(id: 7, .powerSync(.clientState(tables: nil))),
            DriverRequest(id: 8, .powerSync(.follow)), .close(id: 9),
        ]
        let answers = await Self.session(requests.map { String(decoding: $0.line.dropLast(), as: UTF8.self) })
        #expect(answers.count == requests.count)
        for (request, answer) in zip(requests, answers) {
            let response = try DriverResponse(line: Array(CanonicalJSON.compact(answer).utf8), answering: request.body.op)
            #expect(response.id == request.id && response.failure == nil, "\(request.body.op): \(CanonicalJSON.compact(answer))")
        }
        #expect(answers[0]["result"]?["profile"]?.stringValue == "powersync")
        #expect(answers[2]["result"]?["pending_uploads"]?.numberValue?.intValue == 1)
        #expect(answers[3]["result"]?["checkpoint_request_id"]?.stringValue == "1")
        #expect(answers[4]["result"]?["outcome"]?.stringValue == "timeout")
        #expect(answers[5]["result"]?["entries"]?.numberValue?.intValue == 1)
        #expect(
            CanonicalJSON.compact(answers[6]["result"] ?? .null)
                == #"{"last_checkpoint":null,"pending_uploads":0,"requests":{"1":"pending"},"rows":{"todos":{"t1":{"title":"a"}}}}"#)
        #expect(String(decoding: requests[7].line, as: UTF8.self) == #"{"follow":true,"id":8,"op":"sync"}"# + "\n")
        #expect(answers[7]["result"] == ["lines": 1], "follow is the engine's follow(), not its sync()")
    }

    @Test("ops of the other profile are DRIVER_UNSUPPORTED at /op, ops before attach are DRIVER_SEQUENCE, bad payloads name their pointer")
    func refusals() async {
        let answers = await Self.session([
            #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"#,
            #"{"id":2,"op":"sync"}"#,
            #"{"id":3,"op":"attach","store":"/tmp/x","base_url":"http://127.0.0.1:1","token":"t","user_id":"u","client_id":"c"}"#,
            #"{"id":4,"op":"push"}"#,
            #"{"id":5,"op":"wait-for-sync","checkpoint_request_id":"1","timeout_ms":0}"#,
            #"{"id":6,"op":"local-write","write":{"op":"DELETE","table":"todos","id":"t1","data":{}}}"#,
            #"{"id":7,"op":"wait-for-sync","checkpoint_request_id":"9","timeout_ms":5}"#,
            #"{"id":8,"op":"upload","extra":1}"#,
            #"{"id":9,"op":"sync","follow":"yes"}"#,
            #"{"id":10,"op":"sync","follow":false}"#,
        ])
        let codes = answers.map { $0["error"]?["code"]?.stringValue ?? "ok" }
        #expect(
            codes == [
                "ok", "DRIVER_SEQUENCE", "ok", "DRIVER_UNSUPPORTED", "DRIVER_INVALID_VALUE", "DRIVER_INVALID_VALUE", "UNKNOWN_REQUEST",
                "DRIVER_UNKNOWN_KEY", "DRIVER_INVALID_VALUE", "ok",
            ])
        #expect(answers[8]["error"]?["pointer"]?.stringValue == "/follow")
        #expect(answers[9]["result"] == ["lines": 0], "follow: false is the one-shot sync")
        #expect(answers[3]["error"]?["pointer"]?.stringValue == "/op")
        #expect(answers[4]["error"]?["pointer"]?.stringValue == "/timeout_ms")
        #expect(answers[5]["error"]?["pointer"]?.stringValue == "/write/data")
    }

    @Test("a KizunaSync driver's hello carries no profile, and it refuses PowerSync ops at /op")
    func kizunaSyncUnaffected() async {
        let lines = await runSession(
            #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"# + "\n" + Fixture.text(.open(id: 2, Fixture.open))
                + #"{"id":3,"op":"request-checkpoint"}"# + "\n",
            engine: ToyEngine())
        #expect(parsed(lines.lines[0])["result"]?["profile"] == nil)
        #expect(errorCode(lines.lines[1]) == nil)
        #expect(errorCode(lines.lines[2]) == "DRIVER_UNSUPPORTED" && errorPointer(lines.lines[2]) == "/op")
    }
}
