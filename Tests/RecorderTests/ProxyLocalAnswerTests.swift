import Corpus
import Foundation
import HTTP
import JSON
import Recorder
import Testing

/// What the proxy answers itself instead of relaying: `OPTIONS *`, a request with two
/// Authorization headers, and an upstream answer whose framing is ambiguous.
@Suite("Recording proxy: answers it gives itself")
struct ProxyLocalAnswerTests {
    @Test("OPTIONS * is 204 with Allow, neither forwarded nor recorded, and the connection goes on")
    func serverOptions() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(
            port: harness.port,
            ["OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], pause: 0.2)
        #expect(reply.text.hasPrefix("HTTP/1.1 204 No Content\r\n"), "\(reply.text)")
        #expect(reply.text.contains("Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n"))
        #expect(reply.text.contains("X-Upstream: yes"), "the next request was forwarded: \(reply.text)")
        let closing = await RawClient.exchange(port: harness.port, ["OPTIONS * HTTP/1.0\r\n\r\n"])
        #expect(closing.status == 204)
        #expect(closing.text.contains("Connection: close\r\n"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.map(\.path) == ["/echo"])
    }

    @Test("a request with two Authorization headers is 400, not forwarded and not recorded")
    func repeatedAuthorization() async throws {
        let harness = try RecorderHarness()
        let token = RecorderHarness.jwt(sub: "u1", session: "s1")
        let reply = await RawClient.exchange(
            port: harness.port,
            ["GET /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nauthorization: Bearer other\r\n\r\n"])
        #expect(reply.status == 400)
        #expect(reply.text.contains("more than one Authorization header"))
        #expect(!reply.text.contains("X-Upstream"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.isEmpty)
    }

    static let replies = [
        "/two-lengths": "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello!",
        "/length-list": "HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\nConnection: close\r\n\r\nhello!",
        "/length-and-chunked":
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "/same-lengths": "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    ]

    @Test(
        "an upstream answer with conflicting framing is 502 to the client and recorded as such with :accord-error",
        arguments: ["/two-lengths", "/length-list", "/length-and-chunked"])
    func conflictingFraming(_ path: String) async throws {
        let upstream = try ScriptedUpstream(Self.replies)
        defer { upstream.stop() }
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(upstream.port)")
        let reply = await RawClient.exchange(port: harness.port, ["GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 502, "\(reply.text)")
        #expect(!reply.text.contains("hello"), "nothing of the upstream's answer is relayed: \(reply.text)")
        let body = try JSONParser.parse(Array(reply.body.utf8))
        #expect(body["code"]?.stringValue == "ACCORD_UPSTREAM")
        #expect(body.objectValue?.keys.sorted() == ["code", "details", "hint", "message"])
        let after = await RawClient.exchange(port: harness.port, ["GET /same-lengths HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(after.status == 200)
        #expect(after.body == "hello", "equal repeated lengths are relayed: \(after.text)")
        #expect(harness.proxy.statistics.errors == 1)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        try #require(exchanges.count == 2)
        #expect(exchanges[0].status == 502)
        #expect(exchanges[0].response["code"]?.stringValue == "ACCORD_UPSTREAM")
        let note = exchanges[0].responseHeaders[":accord-error"]?.stringValue ?? ""
        #expect(note.hasPrefix("upstream answer refused: answer 200 has"), "\(note)")
        #expect(exchanges[1].status == 200)
    }
}
