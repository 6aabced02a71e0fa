import Capture
import Corpus
import Foundation
import HTTP
import JSON
import Recorder
import Testing

@Suite("Recording proxy: what is recorded")
struct RecordingContentTests {
    static func post(_ path: String, token: String?, body: String, extra: String = "") -> String {
        var request = "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        return request + extra + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    @Test("rpc exchanges are recorded with JSON bodies and the identity from the JWT; other paths as http")
    func rpcAndHTTP() async throws {
        let harness = try RecorderHarness()
        let token = RecorderHarness.jwt(sub: "user-1", session: "client-1")
        let push = #"{"batch":{"atomic":false,"mutations":[]},"last_mutation_id":null,"schema_version":1}"#
        #expect(await RawClient.exchange(port: harness.port, [Self.post("/rest/v1/rpc/push", token: token, body: push)]).status == 200)
        let pull = #"{"buckets":[],"cursor":"0","schema_version":1,"client_id":"body-client"}"#
        #expect(await RawClient.exchange(port: harness.port, [Self.post("/rest/v1/rpc/pull", token: nil, body: pull)]).status == 200)
        #expect(await RawClient.exchange(port: harness.port, [Self.post("/echo", token: nil, body: "plain text")]).status == 200)
        let (header, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(header?.tool == "accord test")
        #expect(header?.upstream == "http://127.0.0.1:\(harness.upstream.port)")
        #expect(header?.redaction["enabled"] == .bool(true))
        #expect(exchanges.map(\.rpc) == ["push", "pull", "http"])
        #expect(exchanges.map(\.number) == [1, 2, 3])
        #expect(exchanges[0].user == "user-1")
        #expect(exchanges[0].client == "client-1")
        #expect(exchanges[0].request["schema_version"] == .number(JSONNumber(1)))
        #expect(exchanges[0].response["cursor"]?.stringValue == "0")
        #expect(exchanges[0].status == 200)
        #expect(exchanges[1].user == nil)
        #expect(exchanges[1].client == "body-client")
        #expect(exchanges[2].request == .string("plain text"))
        #expect(exchanges[2].response["method"]?.stringValue == "POST")
        #expect(exchanges[2].responseHeaders["X-Upstream"]?.stringValue == "yes")
    }

    /// Issue 35: text escaped into JSON grows up to six times, so a 32 MiB body of control
    /// characters made a 189 MiB line that the recording's own readers refuse (128 MiB).
    @Test(
        "a line that would pass the recorded line limit leaves out its largest bodies, saying so; one under it keeps them; the recording reads back under that limit"
    )
    func lineLimit() async throws {
        let limit = 64 * 1024
        let harness = try RecorderHarness(recordedLineLimit: limit)
        // Each control character is six bytes once escaped (\u0001); /echo answers the body back.
        for size in [4096, 8192, 20480] {
            let body = String(repeating: "\u{01}", count: size)
            let request =
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n\(body)"
            #expect(await RawClient.exchange(port: harness.port, [request]).status == 200)
        }
        let bytes = try await harness.finish()
        var reader = RecordingReader(file: "limit.jsonl", maxLine: limit)
        try bytes.withUnsafeBufferPointer { chunk in try reader.feed(chunk) { _ in } }
        try reader.finish { _ in }
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.allSatisfy { $0.count + 1 <= limit }, "\(lines.map(\.count))")
        let (_, exchanges) = try RecorderHarness.read(bytes)
        try #require(exchanges.count == 3)
        #expect(exchanges[0].request == .string(String(repeating: "\u{01}", count: 4096)))
        #expect(exchanges[0].response["body"]?.stringValue?.count == 4096)
        #expect(exchanges[0].responseHeaders[":accord-not-recorded"] == nil)
        #expect(exchanges[1].request == .string(String(repeating: "\u{01}", count: 8192)))
        #expect(exchanges[1].response.stringValue?.hasSuffix("bytes once encoded, over the recorded line limit, not recorded>") == true)
        let one = try #require(exchanges[1].responseHeaders[":accord-not-recorded"]?.stringValue)
        #expect(one.hasPrefix("the response body ("), "\(one)")
        #expect(!one.contains("request body"), "\(one)")
        #expect(exchanges[2].request.stringValue?.hasSuffix("not recorded>") == true)
        #expect(exchanges[2].response.stringValue?.hasSuffix("not recorded>") == true)
        let both = try #require(exchanges[2].responseHeaders[":accord-not-recorded"]?.stringValue)
        #expect(both.contains("the response body (") && both.contains(" and the request body ("), "\(both)")
        #expect(both.hasSuffix("longer than the 65536 bytes a recording's readers take by default"), "\(both)")
    }

    @Test("by default the recorded line limit is the longest line a recording's readers take")
    func defaultLineLimit() throws {
        let configuration = try RecorderConfiguration(upstream: "http://127.0.0.1:1", output: "/tmp/unused.jsonl")
        #expect(configuration.recordedLineLimit == RecordingReader.defaultMaxLine)
    }

    @Test("canary secrets never reach the recording; the same secret keeps the same placeholder")
    func redactsCanaries() async throws {
        let harness = try RecorderHarness(policy: RedactionPolicy(redact: ["x-session-key"], keep: ["x-api-version"]))
        let token = RecorderHarness.jwt(sub: "canary-user", session: "canary-session")
        let body =
            #"{"refresh_token":"body-canary-refresh-42","nested":{"password":12345678},"note":"jwt inside: "#
            + token + #"","client_id":"c"}"#
        let extra =
            "apikey: apikey-canary-9f8e7d\r\nCookie: sid=cookie-canary-1\r\nX-Session-Key: header-canary-5\r\nX-Api-Version: v1-kept\r\n"
        for _ in 0..<2 {
            let request = Self.post("/rest/v1/rpc/push?access_token=query-canary-3&limit=5", token: token, body: body, extra: extra)
            #expect(await RawClient.exchange(port: harness.port, [request]).status == 200)
        }
        let bytes = try await harness.finish()
        let text = String(decoding: bytes, as: UTF8.self)
        let canaries = [
            token, "c2lnbmF0dXJlLWNhbmFyeS1zaWc", "body-canary-refresh-42", "12345678", "apikey-canary-9f8e7d", "cookie-canary-1",
            "header-canary-5", "query-canary-3", "resp-canary-refresh-77",
        ]
        for canary in canaries { #expect(!text.contains(canary), "\(canary) leaked") }
        let (_, exchanges) = try RecorderHarness.read(bytes)
        #expect(exchanges.count == 2)
        let first = exchanges[0]
        #expect(first.user == "canary-user")
        #expect(first.client == "canary-session")
        #expect(first.requestHeaders["Authorization"]?.stringValue == "Bearer <redacted:jwt:1>")
        #expect(first.request["note"]?.stringValue == "jwt inside: <redacted:jwt:1>")
        #expect(first.requestHeaders["X-Api-Version"]?.stringValue == "v1-kept")
        #expect(first.path.hasPrefix("/rest/v1/rpc/push?access_token=<redacted:secret:"))
        #expect(first.path.hasSuffix("&limit=5"))
        #expect(first.response["refresh_token"]?.stringValue?.hasPrefix("<redacted:secret:") == true)
        #expect(exchanges[1].requestHeaders == first.requestHeaders)
        #expect(exchanges[1].request == first.request)
        #expect(exchanges[1].path == first.path)
    }

    @Test(
        "concurrent clients: every exchange is recorded exactly once, numbers increasing in file order",
        arguments: [RecordingWriter.Durability.queued, .written, .synced])
    func concurrentClients(durability: RecordingWriter.Durability) async throws {
        let harness = try RecorderHarness(durability: durability)
        let count = 40
        await withTaskGroup(of: Int?.self) { group in
            for index in 0..<count {
                group.addTask {
                    let request = "GET /echo?id=\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    return await RawClient.exchange(port: harness.port, [request]).status
                }
            }
            for await status in group { #expect(status == 200) }
        }
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == count)
        #expect(Set(exchanges.map(\.path)) == Set((0..<count).map { "/echo?id=\($0)" }))
        #expect(exchanges.map(\.number) == Array(1...count))
    }

    @Test("the recording file must not already hold content")
    func refusesExistingFile() throws {
        let file = NSTemporaryDirectory() + "accord-recorder-existing-\(UUID().uuidString).jsonl"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let configuration = try RecorderConfiguration(upstream: "http://127.0.0.1:9", output: file)
        #expect(throws: RecorderError.self) { try RecordingProxy.start(configuration) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")
    }

    @Test("upstream URLs with credentials, a query or another scheme are refused")
    func refusesBadUpstream() {
        for url in ["ftp://host", "http://user:pw@host", "http://host/?q=1", "not a url", "http://"] {
            #expect(throws: RecorderError.self) { try RecorderConfiguration(upstream: url, output: "/tmp/x") }
        }
    }
}
