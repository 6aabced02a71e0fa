import Capture
import Corpus
import Foundation
import JSON
import Testing

/// What conversions infer from the wire: server configuration, identities from HAR, redaction.
@Suite("Convert: inference from recorded traffic and HAR import")
struct ConvertInferenceTests {
    static let user = "00000000-0000-4000-8000-a10000000001"

    static func push(_ mutations: [JSONValue], schema: Int = 1, response: JSONValue = ["verdicts": []]) -> RecordedExchange {
        var exchange = RecordedExchange(
            number: 1, rpc: "push",
            request: [
                "batch": ["atomic": false, "mutations": .array(mutations)], "last_mutation_id": nil,
                "schema_version": .number(JSONNumber(schema)),
            ],
            response: response)
        exchange.user = user
        return exchange
    }

    @Test("tables, bucket columns, composite keys and hlc mode are inferred from requests")
    func inference() {
        let pull = RecordedExchange(
            number: 2, rpc: "pull",
            request: ["buckets": [["table": "todos", "params": ["tenant": .string(Self.user)]]], "cursor": "0", "schema_version": 1],
            response: ["cursor": "0", "has_more": false, "rows": [], "tombstones": [], "signal": nil])
        let seat: JSONValue = [
            "mutation_id": "m1", "table": "seats", "op": "insert", "pk": "[\"1\", \"12\"]",
            "columns": ["hall": 1, "holder": "ada", "owner_id": .string(Self.user), "seat": 12],
        ]
        let todo: JSONValue = [
            "mutation_id": "m2", "table": "todos", "op": "update", "pk": "t1", "columns": ["title": "x"],
            "hlc": "2026-01-01T00:00:01.000Z|0|c",
        ]
        let config = ServerInference.config(from: [Self.push([seat, todo]), pull])
        #expect(config.tables.map(\.name) == ["seats", "todos"])
        #expect(config.tables[0].bucketColumn == "owner_id")
        #expect(config.tables[0].keyColumns == ["hall", "seat"])
        #expect(config.tables[0].conflictMode == nil)
        #expect(config.tables[1].bucketColumn == "tenant")
        #expect(config.tables[1].conflictMode == "hlc")
        #expect(config.minSchemaVersion == 1)
    }

    @Test("a RESET_REQUIRED answer raises the inferred minimum schema version above the request's")
    func resetRaisesMinimum() {
        let reset = Self.push([], schema: 3, response: ["signal": ["type": "RESET_REQUIRED"]])
        #expect(ServerInference.config(from: [reset]).minSchemaVersion == 4)
    }

    @Test("HAR import redacts credentials and takes the identity from the bearer JWT's claims")
    func harImportRedacts() throws {
        let claims = #"{"sub":"user-1","session_id":"client-9"}"#
        let payload = Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let har: JSONValue = [
            "log": [
                "version": "1.2", "creator": ["name": "browser", "version": "1"],
                "entries": [
                    [
                        "startedDateTime": "2026-11-30T10:00:00.000Z", "time": .number(JSONNumber(literal: "12.5")),
                        "request": [
                            "method": "POST", "url": "https://demo.supabase.co/rest/v1/rpc/pull",
                            "headers": [
                                ["name": "Authorization", "value": .string("Bearer eyJhbGciOiJIUzI1NiJ9.\(payload).c2ln")],
                                ["name": "apikey", "value": "secret-key"], ["name": "Content-Type", "value": "application/json"],
                            ],
                            "postData": ["mimeType": "application/json", "text": #"{"cursor":"0","buckets":[]}"#],
                        ],
                        "response": [
                            "status": 200, "headers": [["name": "Set-Cookie", "value": "s=1"]],
                            "content": ["mimeType": "application/json", "text": #"{"cursor":"0"}"#],
                        ],
                    ],
                    [
                        "startedDateTime": "2026-11-30T10:00:01.000Z", "time": 1,
                        "request": ["method": "GET", "url": "https://demo.supabase.co/auth/v1/user?x=1", "headers": []],
                        "response": ["status": 401, "headers": [], "content": ["mimeType": "text/plain", "text": "no"]],
                    ],
                ],
            ]
        ]
        let recording = try HARImport.recording(from: har, file: "s.har", tool: "accord-test")
        #expect(recording.header.upstream == "https://demo.supabase.co")
        let pull = recording.exchanges[0]
        #expect(pull.rpc == "pull")
        #expect(pull.user == "user-1")
        #expect(pull.client == "client-9")
        #expect(pull.requestHeaders["Authorization"] == "Bearer <redacted:jwt:1>")
        #expect(pull.requestHeaders["apikey"] == "<redacted:secret:1>")
        #expect(pull.responseHeaders["Set-Cookie"] == "<redacted:secret:2>")
        #expect(pull.request["cursor"] == "0")
        #expect(pull.durationMilliseconds == 12.5)
        let other = recording.exchanges[1]
        #expect(other.rpc == "http")
        #expect(other.path == "/auth/v1/user?x=1")
        #expect(other.response == "no", "a text body is kept as text")
        #expect(other.atMilliseconds == 1000)
        let text = String(decoding: recording.bytes, as: UTF8.self)
        #expect(!text.contains("secret-key"))
        #expect(!text.contains(payload))
    }

    @Test("something that is not HAR is refused with a pointer")
    func notHAR() {
        #expect(throws: CorpusError.self) { try HARImport.recording(from: ["log": ["entries": 3]], file: "bad.har", tool: "t") }
    }
}
