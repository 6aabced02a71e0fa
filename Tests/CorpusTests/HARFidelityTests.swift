import Capture
import Corpus
import Foundation
import JSON
import Testing

/// What a HAR export says about a recording, and what comes back: the same bytes, for the
/// checked-in recordings and for one holding what HAR makes awkward (repeated headers, text
/// bodies that look like JSON, placeholders in URLs, kept names).
@Suite("HAR fidelity: names, queryString, URL-encoded placeholders, body sizes, byte-exact round trips")
struct HARFidelityTests {
    static func awkward() throws -> RecordingContents {
        let header = RecordingHeader(
            tool: "accord-test", startedAt: "2026-12-01T10:00:00.000Z", upstream: "https://demo.supabase.co",
            redaction: RedactionPolicy(keep: ["X-Trace-Token"]).json)
        var first = RecordedExchange(number: 1, rpc: "http", request: .string("[1,2]"), response: .string("plain é text"), status: 302)
        first.method = "GET"
        first.path = "/reset/<redacted:secret:1>;token=<redacted:secret:2>?api%6Bey=<redacted:secret:3>&q=a%20b&flag"
        first.requestHeaders = [
            "Authorization": "Bearer <redacted:jwt:1>", "X-Trace-Token": "kept-by-policy", "Content-Type": "text/plain",
            "Accept": ["application/json", "text/plain"],
        ]
        first.responseHeaders = ["Location": "https://app.example/cb#access_token=<redacted:secret:4>", "Content-Type": "text/plain"]
        var second = RecordedExchange(number: 3, rpc: "pull", request: ["cursor": "0"], response: ["cursor": "7", "rows": []])
        second.user = "u-1"
        second.client = "c-1"
        second.atMilliseconds = 12.5
        second.responseHeaders = [":accord-truncated": "recorded the first 10 of 20 body bytes"]
        return RecordingContents(header: header, exchanges: [first, second])
    }

    /// Where two byte strings first differ, with a little context.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> String {
        let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let window = { (bytes: [UInt8]) in String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self) }
        return "byte \(at): \(window(a)) | \(window(b))"
    }

    static func converted(_ bytes: [UInt8], from: FormatConversion.Format, to: FormatConversion.Format) throws -> [UInt8] {
        try FormatConversion.convert(bytes, file: "in", from: from, to: to, tool: "accord-test", caseID: "lifecycle/001-x").bytes
    }

    @Test("recording → HAR → recording gives the same bytes: the checked-in recordings and an awkward one")
    func byteExact() throws {
        var inputs = [try Self.awkward().bytes]
        for name in ["multi-user-sync", "schema-reset", "wall-clock-deletes"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Recordings/\(name).jsonl")
            inputs.append(Array(try Data(contentsOf: url)))
        }
        for input in inputs {
            // A recording's lines are written back in canonical form (keys sorted); that form
            // comes back from HAR byte for byte.
            let canonical = try RecordingContents(bytes: input, file: "in.jsonl").bytes
            let har = try Self.converted(input, from: .recording, to: .har)
            let back = try Self.converted(har, from: .har, to: .recording)
            #expect(back.count == canonical.count && back == canonical, "first difference: \(Self.difference(back, canonical))")
        }
    }

    @Test("the HAR entry: header names as recorded, one entry per value, queryString decoded, placeholders escaped in the URL")
    func entry() throws {
        let har = try JSONParser.parse(try Self.converted(try Self.awkward().bytes, from: .recording, to: .har))
        let entry = try #require(har["log"]?["entries"]?.arrayValue?.first)
        let url = try #require(entry["request"]?["url"]?.stringValue)
        #expect(
            url
                == "https://demo.supabase.co/reset/%3Credacted:secret:1%3E;token=%3Credacted:secret:2%3E?api%6Bey=%3Credacted:secret:3%3E&q=a%20b&flag"
        )
        #expect(URL(string: url) != nil, "the URL parses")
        let names = entry["request"]?["headers"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        // In recorded order (a recording keeps its members sorted), each value of a repeated field on its own.
        #expect(names == ["Accept", "Accept", "Authorization", "Content-Type", "X-Trace-Token"])
        #expect(
            entry["request"]?["queryString"]
                == [["name": "apikey", "value": "<redacted:secret:3>"], ["name": "q", "value": "a b"], ["name": "flag", "value": ""]])
        #expect(entry["request"]?["postData"]?["text"] == "[1,2]")
        #expect(entry["request"]?["postData"]?["mimeType"] == "text/plain")
        #expect(entry["request"]?["bodySize"] == 5)
        #expect(entry["response"]?["content"]?["text"] == "plain é text")
        #expect(entry["response"]?["bodySize"] == .number(JSONNumber("plain é text".utf8.count)))
        #expect(entry["response"]?["content"]?["size"] == entry["response"]?["bodySize"])
    }

    @Test("a browser's HAR loses every credential on import: headers, URL, fragment, bodies, JWTs anywhere")
    func browserImport() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEiLCJzZXNzaW9uX2lkIjoiYy0xIn0.c2lnbmF0dXJlLWhhcg"
        let har: JSONValue = [
            "log": [
                "version": "1.2", "creator": ["name": "browser", "version": "1"],
                "entries": [
                    [
                        "startedDateTime": "2026-12-01T10:00:00.000Z", "time": 1,
                        "request": [
                            "method": "POST", "url": "https://demo.supabase.co/auth/v1/token?grant_type=password&apikey=har-key-1",
                            "headers": [
                                ["name": "X-Client-Info", "value": .string("v=\(jwt)")], ["name": "apikey", "value": "har-key-2"],
                            ],
                            "postData": ["mimeType": "application/json", "text": #"{"email":"a@b","password":"har-pass-1"}"#],
                        ],
                        "response": [
                            "status": 200, "headers": [["name": "Location", "value": "https://app/cb#refresh_token=har-refresh-1"]],
                            "content": [
                                "mimeType": "application/json", "text": #"{"access_token":"har-access-1","refresh_token":"har-refresh-2"}"#,
                            ],
                        ],
                    ]
                ],
            ]
        ]
        let out = String(decoding: try Self.converted(CanonicalJSON.render(har), from: .har, to: .recording), as: UTF8.self)
        for secret in [jwt, "har-key-1", "har-key-2", "har-pass-1", "har-refresh-1", "har-access-1", "har-refresh-2"] {
            #expect(!out.contains(secret), "\(secret)")
        }
        #expect(out.contains("grant_type=password"))
    }

    @Test("a browser's HAR: base64 content, HTTP/2 :path, and an origin with userinfo or a query keep nothing secret")
    func browserEncodings() throws {
        let body = Data(#"{"access_token":"har-b64-1"}"#.utf8).base64EncodedString()
        let har: JSONValue = [
            "log": [
                "version": "1.2", "creator": ["name": "browser", "version": "1"],
                "entries": [
                    [
                        "startedDateTime": "2026-12-01T10:00:00.000Z", "time": 1,
                        "request": [
                            "method": "GET", "url": "https://u:har-pw-2@api.example?api_key=har-key-3",
                            "headers": [
                                [
                                    "name": ":path", "value": "/auth/v1/magic/Xk9fQ2Lr7TzWb4Yp1Nc8Vd3H?access_token=har-path-4",
                                ]
                            ],
                        ],
                        "response": [
                            "status": 200, "headers": [],
                            "content": ["mimeType": "application/json", "text": .string(body), "encoding": "base64"],
                        ],
                    ]
                ],
            ]
        ]
        let out = String(decoding: try Self.converted(CanonicalJSON.render(har), from: .har, to: .recording), as: UTF8.self)
        for secret in ["har-b64-1", "har-pw-2", "har-key-3", "har-path-4", "Xk9fQ2Lr7TzWb4Yp1Nc8Vd3H"] {
            #expect(!out.contains(secret), "\(secret)")
        }
        #expect(out.contains(#""upstream":"https://api.example""#))
        #expect(out.contains("access_token"), "the decoded body is recorded, redacted")
    }
}
