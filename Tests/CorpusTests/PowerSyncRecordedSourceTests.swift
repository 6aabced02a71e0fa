import Capture
import Corpus
import JSON
import PowerSyncWire
import Testing

/// A PowerSync recording's fixture calls as its source side: read through
/// `PowerSync.Surface.Fixture`, turned into source and replicate steps and service settings by the
/// conversion the lanes replay, what the grammar cannot hold left out with a note, and the
/// client lane's reading of the recorded checkpoint requests.
@Suite("the source side of a recorded PowerSync session")
struct PowerSyncRecordedSourceTests {
    static func fixture(_ name: String, _ body: JSONValue, status: Int = 204) -> RecordedExchange {
        var exchange = RecordedExchange(number: 0, rpc: "http", request: body, response: .null, status: status)
        exchange.method = "POST"
        exchange.path = "/accord/powersync/" + name
        return exchange
    }

    static let changes: JSONValue = [
        ["grant": ["bucket": "b", "user_id": "user-ada"]],
        ["put": ["bucket": "b", "object_type": "todos", "object_id": "t1", "data": "{}", "checksum": 3]],
    ]

    static func recording(_ exchanges: [RecordedExchange]) -> RecordingContents {
        let header = RecordingHeader(
            tool: "test", startedAt: "2026-12-02T00:00:00Z", upstream: "http://127.0.0.1:1", redaction: ["policy": "default"])
        let numbered = exchanges.enumerated().map { index, exchange in
            var copy = exchange
            copy.number = index + 1
            return copy
        }
        return RecordingContents(header: header, exchanges: numbered)
    }

    static let request = RecordedExchange(
        number: 0, rpc: "checkpoint-request", request: ["checkpoint_request_id": "1", "client_id": "c1"],
        response: ["data": ["checkpoint_request_id": "1"]])

    @Test("fixture calls become the transcript's source steps, replicate steps and service settings, in place")
    func fixtureCallsBecomeSourceSteps() throws {
        let contents = Self.recording([
            Self.fixture("reset", [:]), Self.fixture("configure", ["data_page_ops": 2]),
            Self.fixture("source", ["changes": Self.changes, "replicated": false]), Self.request, Self.fixture("replicate", [:]),
        ])
        let result = PowerSync.RecordingToTranscript.convert(contents, caseID: "powersync/001-recording-x")
        #expect(result.notes.isEmpty, "\(result.notes)")
        let steps = try #require(result.json["steps"]?.arrayValue)
        #expect(steps.map { $0["kind"]?.stringValue } == ["source", "checkpoint-request", "replicate"])
        #expect(steps[0]["n"] == 1 && steps[0]["changes"] == Self.changes && steps[0]["replicated"] == false)
        #expect(steps[2]["n"] == 3)
        #expect(result.json["service"] == ["data_page_ops": 2])
        let loaded = try PowerSync.LoadedTranscript(raw: [], json: result.json, file: "x.jsonl")
        #expect(loaded.transcript.service.dataPageOps == 2)
        #expect(loaded.transcript.steps.filter(\.isSourceSide).count == 2)
    }

    @Test("a reset after the first step, a second configure and a refused call are left out with a note")
    func unrepresentableCallsAreNoted() throws {
        let contents = Self.recording([
            Self.request, Self.fixture("reset", [:]), Self.fixture("configure", ["data_page_ops": 1]),
            Self.fixture("source", ["changes": Self.changes], status: 400),
        ])
        let result = PowerSync.RecordingToTranscript.convert(contents, caseID: "powersync/001-recording-x")
        #expect(result.json["steps"]?.arrayValue?.count == 1)
        #expect(result.notes.count == 3, "\(result.notes)")
        #expect(result.notes[0].hasPrefix("exchange 2: a reset after step 1"))
        #expect(result.notes[2] == "exchange 4: fixture source refused (HTTP 400), not a step")
    }

    @Test(
        "the replay's client reading: the first checkpoint request and each one before a stream are the client's reconcile, the others its request-checkpoint, in requests mode"
    )
    func clientReadingOfCheckpointRequests() throws {
        var second = Self.request
        second.request = ["checkpoint_request_id": "2", "client_id": "c1"]
        second.response = ["data": ["checkpoint_request_id": "2"]]
        let contents = Self.recording([Self.fixture("source", ["changes": Self.changes]), Self.request, second])
        let replay = try PowerSync.RecordingToTranscript.replay(contents, file: "/tmp/session.jsonl")
        #expect(replay.loaded.transcript.caseID == "powersync/001-recording-session")
        #expect(replay.loaded.transcript.steps.map(\.label) == ["source", "checkpoint-request", "checkpoint-request"])
        #expect(replay.loaded.transcript.checkpointMode == .legacy)
        let client = try #require(replay.loaded.clientPlay)
        #expect(client.checkpointMode == .requests)
        #expect(client.steps.map(\.label) == ["source", "checkpoint-request", "request-checkpoint"])
        #expect(client.steps.map(\.reconcile) == [false, true, false])
        guard case .client(.requestCheckpoint(let request, let response)) = client.steps[2].action else {
            Issue.record("step 3 is \(client.steps[2].action)")
            return
        }
        #expect(request == ["checkpoint_request_id": "2", "client_id": "c1"] && response == ["data": ["checkpoint_request_id": "2"]])
    }

    @Test("a POST to a fixture path is a fixture call, accepted when answered 2xx; a GET there is no PowerSync exchange")
    func fixtureExchanges() {
        var get = Self.fixture("reset", [:])
        get.method = "GET"
        #expect(get.powerSyncStep == .notPowerSync)
        guard case .fixture(let fixture, accepted: true) = Self.fixture("reset", [:]).powerSyncStep else {
            Issue.record("a reset call is not an accepted fixture call")
            return
        }
        #expect(fixture.rawValue == "reset")
        guard case .fixture(_, accepted: false) = Self.fixture("source", [:], status: 400).powerSyncStep else {
            Issue.record("a refused call is not a refused fixture call")
            return
        }
    }
}

/// A recording with no fixture calls (a live service): its source side inferred from its streams.
@Suite("the source side of a recording without fixture calls")
struct PowerSyncInferredSourceTests {
    static func stream(_ lines: [String], client: String = "c1") -> RecordedExchange {
        RecordedExchange(
            number: 0, rpc: "sync-stream", request: ["buckets": [], "client_id": .string(client)],
            response: .array(lines.compactMap { try? JSONParser.parse(Array($0.utf8)) }))
    }

    @Test(
        "grants, ops in op-id order with the unseen ids filled, a diff's commit during the stream after the line before it, a revoke, and a write checkpoint no exchange explains"
    )
    func inferred() throws {
        let lines = [
            #"{"token_expires_in":60}"#,
            #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":3,"count":2,"priority":1},{"bucket":"b","checksum":0,"count":0}],"last_op_id":"5"}}"#,
            #"{"data":{"after":"0","bucket":"a","data":[{"checksum":2,"data":"{}","object_id":"y","object_type":"t","op":"PUT","op_id":"4","subkey":"k"},{"checksum":1,"data":"{}","object_id":"x","object_type":"t","op":"PUT","op_id":"2"}],"has_more":false,"next_after":"4"}}"#,
            #"{"checkpoint_complete":{"last_op_id":"5"}}"#,
            #"{"checkpoint_diff":{"last_op_id":"6","removed_buckets":["b"],"updated_buckets":[{"bucket":"a","checksum":7,"count":3,"priority":1}],"write_checkpoint":"9"}}"#,
            #"{"data":{"after":"4","bucket":"a","data":[{"checksum":4,"object_id":"x","object_type":"t","op":"REMOVE","op_id":"6"}],"has_more":false,"next_after":"6"}}"#,
            #"{"checkpoint_complete":{"last_op_id":"6"}}"#,
        ]
        var exchange = Self.stream(lines)
        exchange.user = "ada"
        let result = PowerSync.RecordingToTranscript.convert(PowerSyncRecordedSourceTests.recording([exchange]), caseID: "powersync/001-x")
        let steps = result.json["steps"]?.arrayValue ?? []
        #expect(steps.map { $0["kind"]?.stringValue ?? "" } == ["source", "sync-stream", "source"])
        let unseen: (Int) -> JSONValue = { id in
            [
                "put": [
                    "bucket": "accord-unseen-ops", "checksum": 0, "data": "{}", "object_id": .string("op-\(id)"),
                    "object_type": "accord_unseen",
                ]
            ]
        }
        let before: [JSONValue] = [
            ["grant": ["bucket": "a", "priority": 1, "user_id": "ada"]], ["grant": ["bucket": "b", "user_id": "ada"]], unseen(1),
            ["put": ["bucket": "a", "checksum": 1, "data": "{}", "object_id": "x", "object_type": "t"]], unseen(3),
            ["put": ["bucket": "a", "checksum": 2, "data": "{}", "object_id": "y", "object_type": "t", "subkey": "k"]], unseen(5),
        ]
        #expect(CanonicalJSON.compact(steps.first?["changes"] ?? .null) == CanonicalJSON.compact(.array(before)))
        #expect(CanonicalJSON.compact(steps.last?["during"] ?? .null) == CanonicalJSON.compact(["after_line": 4, "step": 2]))
        #expect(
            CanonicalJSON.compact(steps.last?["changes"] ?? .null)
                == CanonicalJSON.compact([
                    ["revoke": ["bucket": "b", "user_id": "ada"]],
                    ["checkpoint_request": ["client_id": "c1", "id": "9", "user_id": "ada"]],
                    ["remove": ["bucket": "a", "checksum": 4, "object_id": "x", "object_type": "t"]],
                ]))
        #expect(
            result.notes.first
                == "no fixture calls: the source side is inferred from the streams, 2 commit(s), 3 op id(s) the user never saw filled in accord-unseen-ops"
        )
        // The transcript loads: the during step follows its stream.
        _ = try PowerSync.Transcript(json: result.json, file: "t.json")
    }

    @Test(
        "a stream cut before its data: the ops the next stream delivers are committed where the first checkpoint needs them, not filled; a full checkpoint without a bucket revokes it"
    )
    func cutStreamAndRevoke() throws {
        var first = Self.stream([
            #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":3,"count":2},{"bucket":"b","checksum":0,"count":0}],"last_op_id":"2"}}"#
        ])
        first.user = "ada"
        var second = Self.stream([
            #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":3,"count":2}],"last_op_id":"2"}}"#,
            #"{"data":{"after":"0","bucket":"a","data":[{"checksum":1,"data":"{}","object_id":"x","object_type":"t","op":"PUT","op_id":"1"},{"checksum":2,"data":"{}","object_id":"y","object_type":"t","op":"PUT","op_id":"2"}],"has_more":false,"next_after":"2"}}"#,
            #"{"checkpoint_complete":{"last_op_id":"2"}}"#,
        ])
        second.user = "ada"
        let result = PowerSync.RecordingToTranscript.convert(
            PowerSyncRecordedSourceTests.recording([first, second]), caseID: "powersync/001-x")
        let steps = result.json["steps"]?.arrayValue ?? []
        #expect(steps.map { $0["kind"]?.stringValue ?? "" } == ["source", "sync-stream", "source", "sync-stream"])
        #expect(steps[0]["inferred"] == true)
        #expect(
            CanonicalJSON.compact(steps[0]["changes"] ?? .null)
                == CanonicalJSON.compact([
                    ["grant": ["bucket": "a", "user_id": "ada"]], ["grant": ["bucket": "b", "user_id": "ada"]],
                    ["put": ["bucket": "a", "checksum": 1, "data": "{}", "object_id": "x", "object_type": "t"]],
                    ["put": ["bucket": "a", "checksum": 2, "data": "{}", "object_id": "y", "object_type": "t"]],
                ]))
        #expect(
            CanonicalJSON.compact(steps[2]["changes"] ?? .null) == CanonicalJSON.compact([["revoke": ["bucket": "b", "user_id": "ada"]]]))
        _ = try PowerSync.Transcript(json: result.json, file: "t.json")
    }
}
