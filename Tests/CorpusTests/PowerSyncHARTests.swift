import Capture
import Corpus
import Foundation
import JSON
import PowerSyncWire
import Testing

/// HAR import and export of a PowerSync session: the three routes recognised under a mount
/// point, a sync stream's NDJSON text split into its lines as `accord record` keeps them, the
/// JWT redacted, and the lines surviving a round trip through HAR.
@Suite("HAR import and export of a PowerSync session")
struct PowerSyncHARTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLWFkYSJ9.c2lnbmF0dXJlLWNhbmFyeS14eXoxMjM"

    static func entry(_ method: String, _ url: String, request: String?, response: String, mimeType: String, status: Int = 200) -> JSONValue
    {
        var requestObject: JSONObject = [
            "method": .string(method), "url": .string(url), "httpVersion": "HTTP/1.1",
            "headers": [["name": "Authorization", "value": .string("Token \(jwt)")]], "queryString": [], "cookies": [],
            "headersSize": -1, "bodySize": 0,
        ]
        if let request { requestObject["postData"] = ["mimeType": "application/json", "text": .string(request)] }
        return [
            "startedDateTime": "2026-12-02T06:00:00.000Z", "time": 5, "request": .object(requestObject),
            "response": [
                "status": .number(JSONNumber(status)), "statusText": "", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                "content": ["size": 0, "mimeType": .string(mimeType), "text": .string(response)], "redirectURL": "", "headersSize": -1,
                "bodySize": -1,
            ],
            "cache": [:], "timings": ["send": 0, "wait": 5, "receive": 0],
        ]
    }

    /// The lines, keys in the order a HAR import writes them (sorted, as the canonical form).
    static let lines = [
        #"{"token_expires_in":3600}"#,
        #"{"checkpoint":{"buckets":[{"bucket":"b","checksum":-1.0,"count":1}],"last_op_id":"2","write_checkpoint":"7"}}"#,
        #"{"data":{"after":"0","bucket":"b","data":[{"checksum":4294967295,"data":"{}","object_id":"1","object_type":"t","op":"PUT","op_id":"2"}],"has_more":false,"next_after":"2"}}"#,
        #"{"checkpoint_complete":{"last_op_id":"2"}}"#,
    ]

    static func har() -> [UInt8] {
        let stream = #"{"buckets":[],"client_id":"c1","parameters":{"session":"\#(jwt)"}}"#
        let entries: [JSONValue] = [
            entry(
                "GET", "https://ps.example/api/write-checkpoint2.json?client_id=c1", request: nil,
                response: #"{"data":{"write_checkpoint":"7"}}"#,
                mimeType: "application/json"),
            entry(
                "POST", "https://ps.example/api/sync/stream", request: stream, response: lines.joined(separator: "\r\n") + "\r\n",
                mimeType: "application/x-ndjson"),
            entry(
                "POST", "https://ps.example/api/sync/checkpoint-request",
                request: #"{"client_id":"c1","checkpoint_request_id":"1"}"#, response: #"{"checkpoint_request_id":"42"}"#,
                mimeType: "application/json"),
        ]
        return CanonicalJSON.render([
            "log": ["version": "1.2", "creator": ["name": "browser", "version": "1"], "entries": .array(entries)]
        ])
    }

    static func recording(_ bytes: [UInt8]) throws -> RecordingContents {
        try RecordingContents(
            bytes: try FormatConversion.convert(
                bytes, file: "s.har", from: .har, to: .recording, tool: "accord-test", caseID: "lifecycle/001-x"
            )
            .bytes,
            file: "s.jsonl")
    }

    @Test("the routes are recognised under a mount point and the stream's NDJSON text becomes its lines, redacted")
    func importSplitsLines() throws {
        let recording = try Self.recording(Self.har())
        #expect(recording.exchanges.map(\.rpc) == ["write-checkpoint", "sync-stream", "checkpoint-request"])
        let stream = recording.exchanges[1]
        #expect(
            CanonicalJSON.compact(stream.response) == "[" + Self.lines.joined(separator: ",") + "]",
            "\(CanonicalJSON.compact(stream.response))")
        #expect(stream.response.arrayValue?[1]["checkpoint"]?["buckets"]?.arrayValue?.first?["checksum"]?.numberValue?.literal == "-1.0")
        #expect(stream.request["parameters"]?["session"] == "<redacted:jwt:1>")
        #expect(stream.requestHeaders["Authorization"] == "Token <redacted:jwt:1>")
        #expect(!String(decoding: recording.bytes, as: UTF8.self).contains("c2lnbmF0dXJl"))
        #expect(recording.exchanges[0].queryParameters == ["client_id": "c1"])
        #expect(recording.exchanges.allSatisfy { $0.user == "user-ada" }, "the Token JWT's sub, unverified")
    }

    @Test("a HAR export writes the lines back as NDJSON text, and importing it gives the same recording")
    func roundTrip() throws {
        let recording = try Self.recording(Self.har())
        let har = try FormatConversion.convert(
            recording.bytes, file: "s.jsonl", from: .recording, to: .har, tool: "accord-test", caseID: "lifecycle/001-x"
        ).bytes
        let json = try JSONParser.parse(har)
        let content = json["log"]?["entries"]?.arrayValue?[1]["response"]?["content"]
        #expect(content?["mimeType"] == "application/x-ndjson")
        #expect(content?["text"]?.stringValue?.split(separator: "\n").count == 4)
        let again = try Self.recording(har)
        #expect(again.exchanges.map(\.response) == recording.exchanges.map(\.response))
    }

    @Test("a recorded PowerSync session converts to a PowerSync transcript, numbered from 1 with a powersync case id")
    func toTranscript() throws {
        let recording = try Self.recording(Self.har())
        let bytes = try FormatConversion.convert(
            recording.bytes, file: "s.jsonl", from: .recording, to: .transcript, tool: "accord-test", caseID: "lifecycle/001-recording-s"
        ).bytes
        let loaded = try PowerSync.LoadedTranscript(raw: bytes, json: try JSONParser.parse(bytes), file: "s.json")
        #expect(loaded.transcript.caseID == "powersync/001-recording-s")
        // No fixture call: the stream's checkpoint implies a commit before it (a grant and op 2, op 1 unseen).
        #expect(loaded.transcript.steps.map(\.label) == ["write-checkpoint", "source", "sync-stream", "checkpoint-request"])
        #expect(loaded.transcript.steps.map(\.n) == [1, 2, 3, 4])
        #expect(loaded.transcript.clientID == "c1" && loaded.transcript.userID == "user-ada")
    }
}
