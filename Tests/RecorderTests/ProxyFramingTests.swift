import Corpus
import Foundation
import HTTP
import JSON
import Recorder
import Testing

@Suite("Recording proxy: framing and encodings")
struct ProxyFramingTests {
    @Test("an encoded body passes through byte for byte with its length and is noted, not recorded")
    func encodedPassThrough() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(
            port: harness.port, ["GET /gzip HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"])
        let head = try #require(reply.bytes.firstRange(of: Array("\r\n\r\n".utf8)))
        #expect(Array(reply.bytes[head.upperBound...]) == [0x1F, 0x8B, 0x08, 0x00, 0xFF, 0xFE, 0x00, 0x0D, 0x0A, 0x80, 0x81])
        #expect(reply.text.contains("Content-Length: 11\r\n"))
        #expect(reply.text.contains("Content-Encoding: gzip\r\n"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.first?.response == .string("<11 bytes, content-encoding gzip, not recorded>"))
        #expect(exchanges.first?.requestHeaders["Accept-Encoding"] == .string("gzip"))
    }

    @Test("HEAD keeps the upstream's length and sends no body; the connection stays usable")
    func head() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(
            port: harness.port,
            ["HEAD /gzip HTTP/1.1\r\nHost: x\r\n\r\n", "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], pause: 0.2)
        #expect(reply.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.text.contains("Content-Length: 11\r\n"))
        let second = try #require(reply.text.range(of: "HTTP/1.1 200 OK", options: .backwards))
        #expect(second.lowerBound > reply.text.startIndex)
        #expect(!reply.text.contains("\u{1F}"))
        _ = try await harness.finish()
    }

    @Test("an HTTP/1.0 client gets an unknown-length stream delimited by the connection's close")
    func http10Stream() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(port: harness.port, ["GET /stream HTTP/1.0\r\n\r\n"])
        #expect(reply.text.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(reply.text.contains("Connection: close\r\n"))
        #expect(!reply.text.contains("Transfer-Encoding"))
        #expect(reply.body == "{\"line\":1}\n{\"line\":2}\n{\"line\":3}\n")
        _ = try await harness.finish()
    }

    @Test("a chunked request body is de-chunked and forwarded with its length")
    func chunkedRequest() async throws {
        let harness = try RecorderHarness()
        let request =
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        let reply = await RawClient.exchange(port: harness.port, [request])
        let echo = try JSONParser.parse(reply.body)
        #expect(echo["body"]?.stringValue == "hello world")
        #expect(echo["headers"]?["content-length"]?.stringValue == "11")
        #expect(echo["headers"]?["transfer-encoding"] == nil)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.first?.request == .string("hello world"))
    }

    @Test("a client that goes away mid-stream is recorded as an error and the proxy keeps serving")
    func clientGoesAway() async throws {
        let harness = try RecorderHarness()
        _ = await RawClient.exchange(port: harness.port, ["GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"], timeout: 0.1)
        try await RecorderHarness.waitUntil { harness.proxy.statistics.errors >= 1 }
        let good = await RawClient.exchange(port: harness.port, ["GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(good.status == 200)
        #expect(harness.proxy.statistics.errors == 1)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 2)
        let cut = try #require(exchanges.first { $0.path == "/stream" })
        #expect(cut.responseHeaders[":accord-error"]?.stringValue?.contains("client went away") == true)
    }

    @Test("upstream connections are kept alive and reused across client connections")
    func upstreamReuse() async throws {
        let harness = try RecorderHarness()
        for index in 0..<8 {
            let reply = await RawClient.exchange(
                port: harness.port, ["GET /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            #expect(reply.status == 200)
        }
        // Each event loop keeps its own upstream connections, and a client connection may land
        // on any loop: at most one connection per loop (at most 4) for the 8 requests.
        #expect(harness.upstream.connectionCount >= 1)
        #expect(harness.upstream.connectionCount <= harness.proxy.configuration.eventLoops)
        _ = try await harness.finish()
    }

    @Test("a head whose body is slow to come is relayed at once, before the body")
    func headBeforeSlowBody() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(port: harness.port, ["GET /slow-body HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 200)
        #expect(reply.body == "done")
        let head = try #require(reply.headAfter)
        #expect(head < 0.3)
        #expect(reply.total >= 0.45)
        _ = try await harness.finish()
    }

    /// Issue 35: header bytes that are not UTF-8 were forwarded as U+FFFD (EF BF BD). RFC 9110
    /// §5.5 has a recipient treat such obs-text as opaque data; a proxy sends it on as it came.
    @Test("header values that are not UTF-8 go on byte for byte both ways and are recorded as ISO-8859-1, UTF-8 values as UTF-8")
    func obsTextHeaders() async throws {
        let answer =
            Array("HTTP/1.1 200 OK\r\nX-Answer: gar".utf8) + [0xE7, 0x6F, 0x6E] + Array("\r\nX-Utf8: ça\r\n".utf8)
            + Array("Content-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
        let upstream = try ScriptedUpstream(bytes: ["/latin": answer])
        defer { upstream.stop() }
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(upstream.port)")
        let request =
            Array("GET /latin HTTP/1.1\r\nHost: x\r\nX-Latin: caf".utf8) + [0xE9] + Array("\r\nX-Utf8: é\r\nConnection: close\r\n\r\n".utf8)
        let reply = await RawClient.exchange(port: harness.port, bytes: request)
        #expect(reply.status == 200, "\(reply.text)")
        // To the client: the upstream's bytes, not EF BF BD.
        #expect(reply.bytes.firstRange(of: Array("X-Answer: gar".utf8) + [0xE7, 0x6F, 0x6E, 0x0D, 0x0A]) != nil, "\(reply.bytes)")
        #expect(reply.bytes.firstRange(of: [0xEF, 0xBF, 0xBD]) == nil)
        #expect(reply.text.contains("X-Utf8: ça\r\n"))
        // To the upstream: the client's bytes.
        let head = try #require(upstream.heads.first)
        #expect(head.firstRange(of: Array("X-Latin: caf".utf8) + [0xE9, 0x0D, 0x0A]) != nil, "\(head)")
        #expect(head.firstRange(of: Array("X-Utf8: é\r\n".utf8)) != nil)
        #expect(head.firstRange(of: [0xEF, 0xBF, 0xBD]) == nil)
        // In the recording: each byte that is not UTF-8 as its ISO-8859-1 character.
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        let exchange = try #require(exchanges.first)
        #expect(exchange.requestHeaders["X-Latin"]?.stringValue == "caf\u{E9}", "\(exchange.requestHeaders)")
        #expect(exchange.requestHeaders["X-Utf8"]?.stringValue == "é")
        #expect(exchange.responseHeaders["X-Answer"]?.stringValue == "gar\u{E7}on", "\(exchange.responseHeaders)")
        #expect(exchange.responseHeaders["X-Utf8"]?.stringValue == "ça")
    }
}
