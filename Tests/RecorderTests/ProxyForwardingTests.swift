import Corpus
import Foundation
import HTTP
import JSON
import Recorder
import Testing

@Suite("Recording proxy: forwarding and streaming")
struct ProxyForwardingTests {
    @Test("request and response bytes pass through unchanged, end-to-end headers forwarded, hop-by-hop ones not")
    func passThrough() async throws {
        let harness = try RecorderHarness()
        let body = #"{"b":2,"a":[1,2.50,"é"]}"#
        let request =
            "POST /echo?x=1 HTTP/1.1\r\nHost: client.example\r\nContent-Type: application/json\r\nAccept-Encoding: gzip, br\r\n"
            + "X-Custom: kept\r\nConnection: close, X-Hop\r\nX-Hop: dropped\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let reply = await RawClient.exchange(port: harness.port, [request])
        #expect(reply.status == 200)
        #expect(reply.text.contains("X-Upstream: yes"))
        let echo = try JSONParser.parse(reply.body)
        #expect(echo["body"]?.stringValue == body)
        #expect(echo["target"]?.stringValue == "/echo?x=1")
        #expect(echo["method"]?.stringValue == "POST")
        let headers = try #require(echo["headers"]?.objectValue)
        #expect(headers["x-custom"]?.stringValue == "kept")
        #expect(headers["accept-encoding"]?.stringValue == "gzip, br")
        #expect(headers["content-type"]?.stringValue == "application/json")
        #expect(headers["host"]?.stringValue == "127.0.0.1:\(harness.upstream.port)")
        #expect(headers["x-hop"] == nil)
        #expect(headers["accept"] == nil)
        _ = try await harness.finish()
    }

    @Test("a chunked NDJSON stream arrives line by line: the first line before the upstream finishes")
    func streamsIncrementally() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(port: harness.port, ["GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 200)
        #expect(reply.text.contains("Transfer-Encoding: chunked"))
        let first = try #require(reply.firstLineAfter)
        #expect(first < 0.25)
        #expect(reply.total >= 0.55)
        for index in 1...3 { #expect(reply.body.contains("{\"line\":\(index)}\n")) }
        #expect(reply.body.hasSuffix("0\r\n\r\n"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        let exchange = try #require(exchanges.first)
        #expect(exchange.rpc == "http")
        #expect(exchange.response.stringValue == "{\"line\":1}\n{\"line\":2}\n{\"line\":3}\n")
        #expect(exchange.durationMilliseconds >= 550)
    }

    @Test("keep-alive: several requests on one client connection are each forwarded and recorded")
    func keepAlive() async throws {
        let harness = try RecorderHarness()
        let one = "GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\n"
        let two = "GET /echo?n=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let reply = await RawClient.exchange(port: harness.port, [one, two], pause: 0.1)
        #expect(reply.text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.map(\.path) == ["/echo?n=1", "/echo?n=2"])
        #expect(exchanges.map(\.number) == [1, 2])
    }

    @Test("malformed client HTTP gets 400 or 431 and the proxy keeps serving")
    func malformedRefused() async throws {
        let harness = try RecorderHarness()
        let badLine = await RawClient.exchange(port: harness.port, ["GET /echo HTTP/1.1 extra\r\nHost: x\r\n\r\n"])
        #expect(badLine.status == 400)
        let huge = "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n"
        let oversized = await RawClient.exchange(port: harness.port, [huge])
        #expect(oversized.status == 431)
        let brokenChunks = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhello\r\n0\r\n\r\n"
        let chunked = await RawClient.exchange(port: harness.port, [brokenChunks])
        #expect(chunked.status == 400)
        let good = await RawClient.exchange(port: harness.port, ["GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(good.status == 200)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 1)
    }

    @Test("a slowloris trickle gets 408 and the proxy keeps serving")
    func slowlorisTimesOut() async throws {
        let harness = try RecorderHarness(readTimeout: .seconds(1))
        let pieces = ["GET /echo HTTP/1.1\r\n", "Host: x\r\n", "X-A: 1\r\n", "X-B: 2\r\n", "X-C: 3\r\n", "\r\n"]
        let slow = await RawClient.exchange(port: harness.port, pieces, pause: 0.4)
        #expect(slow.status == 408)
        let good = await RawClient.exchange(port: harness.port, ["GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(good.status == 200)
        _ = try await harness.finish()
    }

    @Test("upstream down: the client gets a 502 and the exchange is recorded as an error")
    func upstreamDown() async throws {
        // A socket bound but not listening: connections are refused, and no other test can
        // take the port meanwhile (a stopped server's port could be reused at once).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let port = try #require(RawClient.bindLoopback(fd))
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(port)")
        let reply = await RawClient.exchange(
            port: harness.port,
            ["POST /rest/v1/rpc/pull?token=q-canary HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"])
        #expect(reply.status == 502)
        #expect(reply.body.contains("ACCORD_UPSTREAM"))
        #expect(!reply.body.contains("q-canary"))
        let bytes = try await harness.finish()
        #expect(!String(decoding: bytes, as: UTF8.self).contains("q-canary"))
        let (_, exchanges) = try RecorderHarness.read(bytes)
        let exchange = try #require(exchanges.first)
        #expect(exchange.status == 502)
        #expect(exchange.rpc == "pull")
        #expect(exchange.responseHeaders[":accord-error"]?.stringValue?.contains("upstream failed") == true)
        #expect(exchange.response["code"]?.stringValue == "ACCORD_UPSTREAM")
    }

    @Test("a WebSocket upgrade gets 501 naming the limit and is not recorded; an h2c upgrade offer is dropped and the request forwarded")
    func upgrades() async throws {
        let harness = try RecorderHarness()
        let websocket = await RawClient.exchange(
            port: harness.port,
            [
                "GET /realtime/v1/websocket?vsn=1.0.0 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ])
        #expect(websocket.status == 501, "\(websocket.text)")
        #expect(websocket.body.contains("WebSocket"), "\(websocket.text)")
        let h2c = await RawClient.exchange(
            port: harness.port,
            [
                "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings, close\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n"
            ])
        #expect(h2c.status == 200, "\(h2c.text)")
        #expect(!h2c.body.lowercased().contains("h2c"), "the offer is not forwarded: \(h2c.body)")
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.map(\.path) == ["/echo"])
    }
}
