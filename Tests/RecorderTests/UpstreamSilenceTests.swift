import Foundation
import Testing

@testable import Recorder

@Suite("Recording proxy: an upstream that goes silent")
struct UpstreamSilenceTests {
    @Test("an upstream that answers nothing within the upstream timeout: 504 for the client, recorded with its reason")
    func silentBeforeHead() async throws {
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(400))
        let reply = await RawClient.exchange(port: harness.port, ["GET /silent HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 504, "\(reply.text)")
        #expect(reply.text.contains("ACCORD_UPSTREAM"))
        #expect(reply.text.contains("--upstream-timeout"))
        // Well before the upstream's own answer at 8 s.
        #expect(reply.total < 6, "took \(reply.total) s")
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        let exchange = try #require(exchanges.first)
        #expect(exchanges.count == 1)
        #expect(exchange.status == 504)
        let note = try #require(exchange.responseHeaders[":accord-error"]?.stringValue)
        #expect(note.contains("timed out"), "\(note)")
    }

    @Test("an upstream that goes silent mid-answer: the client's answer is cut, the exchange recorded as an error")
    func silentAfterHead() async throws {
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(400))
        let reply = await RawClient.exchange(port: harness.port, ["GET /silent-after-head HTTP/1.1\r\nHost: x\r\n\r\n"])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.text.contains("{\"line\":1}"))
        // Cut: the chunked body never got its last chunk, and the connection was closed.
        #expect(!reply.text.hasSuffix("0\r\n\r\n"), "\(reply.text)")
        #expect(reply.total < 6, "took \(reply.total) s")
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        let exchange = try #require(exchanges.first)
        let note = try #require(exchange.responseHeaders[":accord-error"]?.stringValue)
        #expect(note.contains("after 11 body bytes"), "\(note)")
        #expect(note.contains("timed out"), "\(note)")
    }

    @Test("a 504 ends only its exchange: the next pipelined request on the connection is forwarded and answered")
    func pipelinedAfterTimeout() async throws {
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(400))
        let reply = await RawClient.exchange(
            port: harness.port,
            ["GET /silent HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        let text = reply.text
        let timeout = try #require(text.range(of: "HTTP/1.1 504"), "\(text)")
        let answer = try #require(text.range(of: "HTTP/1.1 200"), "\(text)")
        #expect(timeout.lowerBound < answer.lowerBound)
        #expect(text.contains("n=2"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.map(\.status) == [504, 200])
    }

    @Test("HEAD to a silent upstream: 504 with its length and no body")
    func headGetsBodylessTimeout() async throws {
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(400))
        let reply = await RawClient.exchange(port: harness.port, ["HEAD /silent HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 504, "\(reply.text)")
        #expect(reply.text.lowercased().contains("content-length: "))
        #expect(reply.body.isEmpty, "\(reply.text)")
        _ = try await harness.finish()
    }

    @Test("an upstream that sends a line every 300 ms runs past the timeout: each piece restarts the clock")
    func slowButAlive() async throws {
        // Eight lines over 2.1 s against a 900 ms limit: only a clock that restarts lets it finish.
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(900))
        let reply = await RawClient.exchange(port: harness.port, ["GET /long-stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 200)
        #expect(reply.text.contains("{\"line\":8}"))
        #expect(reply.text.hasSuffix("0\r\n\r\n"))
        #expect(reply.total > 1.5, "the stream should take about 2.1 s, took \(reply.total) s")
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.first?.responseHeaders[":accord-error"] == nil)
    }

    @Test("time the proxy paused the transfer for a slow client is not the upstream's silence")
    func pausedIsNotSilent() async throws {
        let harness = try RecorderHarness(upstreamTimeout: .milliseconds(800))
        // The client stops reading for 3 s after its first read: the transfer stays paused
        // (1 MiB waiting) for far longer than the timeout.
        let reply = await RawClient.exchange(
            port: harness.port, ["GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], timeout: 60, stall: 3)
        let front = Array(reply.bytes.prefix(4096))
        let head = try #require(front.firstRange(of: Array("\r\n\r\n".utf8)))
        #expect(reply.bytes.count - head.upperBound == RecorderHarness.bigBody.count)
        #expect(harness.proxy.largestWaitingOutput > ProxyConnection.pauseMark, "the transfer never paused")
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.first?.responseHeaders[":accord-error"] == nil)
    }
}
