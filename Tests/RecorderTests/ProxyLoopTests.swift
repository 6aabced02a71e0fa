import Foundation
import Glibc
import Synchronization
import Testing

@testable import Recorder

@Suite("Recording proxy: event loops, back-pressure, limits and stopping")
struct ProxyLoopTests {
    @Test("a slow reader gets a 7.8 MiB answer whole: the upstream transfer is paused and resumed, not buffered whole")
    func slowReaderBackPressure() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(
            port: harness.port, ["GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], timeout: 60, slowRead: 0.001)
        // Only the front is searched: firstRange(of:) over 8 MiB is slow in debug builds.
        let front = Array(reply.bytes.prefix(4096))
        let head = try #require(front.firstRange(of: Array("\r\n\r\n".utf8)))
        #expect(String(decoding: front, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        let body = reply.bytes[head.upperBound...]
        #expect(body.count == RecorderHarness.bigBody.count)
        let same = body.withUnsafeBytes { received in
            RecorderHarness.bigBody.withUnsafeBytes { sent in
                guard let received = received.baseAddress, let sent = sent.baseAddress else { return false }
                return memcmp(received, sent, RecorderHarness.bigBody.count) == 0
            }
        }
        #expect(same)
        // Paused at 1 MiB waiting: never the whole answer held for the client.
        try await Task.sleep(for: .milliseconds(100))
        #expect(harness.proxy.largestWaitingOutput > ProxyConnection.pauseMark)
        #expect(harness.proxy.largestWaitingOutput < 3 * ProxyConnection.pauseMark)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 1)
        #expect(exchanges.first?.responseHeaders[":accord-error"] == nil)
    }

    @Test("two requests sent in one write are answered in order on the same connection")
    func pipelined() async throws {
        let harness = try RecorderHarness()
        let reply = await RawClient.exchange(
            port: harness.port,
            ["GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        let text = reply.text
        let first = try #require(text.range(of: "n=1"))
        let second = try #require(text.range(of: "n=2"))
        #expect(first.lowerBound < second.lowerBound)
        #expect(text.components(separatedBy: "HTTP/1.1 200").count == 3)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.map(\.path) == ["/echo?n=1", "/echo?n=2"])
    }

    @Test("a client that half-closes after its request still gets the whole answer, then the connection ends")
    func halfClose() async throws {
        let harness = try RecorderHarness()
        let client = try RawSocket(port: harness.port)
        client.send("GET /slow-body HTTP/1.1\r\nHost: x\r\n\r\n")
        client.finishSending()
        let answer = await client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.hasSuffix("done"))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 1)
        #expect(exchanges.first?.responseHeaders[":accord-error"] == nil)
    }

    @Test("a request completed after stop() began is answered 503, not forwarded, not recorded")
    func requestDuringStop() async throws {
        let harness = try RecorderHarness()
        let client = try RawSocket(port: harness.port)
        let proxy = harness.proxy
        // Everything timed runs on a thread of its own: a loaded test run can leave the
        // concurrency pool busy for tens of seconds.
        let reply = ThreadReply()
        Thread.detachNewThread {
            client.send("GET /echo HTTP/1.1\r\nHost: x\r\n")
            usleep(100_000)
            proxy.beginStop()
            usleep(50_000)
            client.send("\r\n")
            reply.deliver(client.readBlocking())
        }
        let text = await reply.value()
        let recording = try await harness.finish()
        #expect(text.hasPrefix("HTTP/1.1 503"))
        #expect(text.contains("Connection: close"))
        let (_, exchanges) = try RecorderHarness.read(recording)
        #expect(exchanges.isEmpty)
    }

    @Test("a client that half-closes after a malformed request still reads the 400")
    func halfCloseAfterBadRequest() async throws {
        let harness = try RecorderHarness()
        let client = try RawSocket(port: harness.port)
        client.send("NOT A REQUEST\r\n\r\n")
        client.finishSending()
        #expect(await client.readAll().hasPrefix("HTTP/1.1 400"))
        _ = try await harness.finish()
    }

    @Test("a connection over the cap, every open one busy with a request, gets 503 at once; the open ones keep working")
    func connectionCap() async throws {
        // A read timeout far beyond any stall: a loaded test run has paused every test for over 60 s,
        // and the requests held in progress must not time out meanwhile (this test is about the cap).
        let harness = try RecorderHarness(readTimeout: .seconds(600), maxConnections: 2)
        let first = try RawSocket(port: harness.port)
        let second = try RawSocket(port: harness.port)
        // Requests in progress: neither connection is idle, so neither gives way.
        first.send("GET /echo HTTP/1.1\r\n")
        second.send("GET /echo HTTP/1.1\r\n")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while harness.proxy.budget.held < 40, clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let refused = await RawClient.exchange(port: harness.port, ["GET /echo HTTP/1.1\r\nHost: x\r\n\r\n"], timeout: 5)
        #expect(refused.status == 503)
        first.send("Host: x\r\nConnection: close\r\n\r\n")
        #expect(await first.readAll().hasPrefix("HTTP/1.1 200"))
        second.close()
        _ = try await harness.finish()
    }

    @Test("connections opened at once are served by the loops in turn, and each is answered")
    func connectionsSpreadOverLoops() async throws {
        let harness = try RecorderHarness(eventLoops: 3)
        // Opened before any is used, as a load generator opens its pool: one loop wakes to
        // accept them all, and hands every other one on.
        let clients = try (0..<9).map { _ in try RawSocket(port: harness.port) }
        for (index, client) in clients.enumerated() {
            client.send("GET /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        for (index, client) in clients.enumerated() {
            let answer = await client.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("n=\(index)"), "client \(index)")
        }
        #expect(harness.proxy.connectionsServedPerLoop == [3, 3, 3])
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 9)
    }

    @Test("stop() lets an exchange in flight finish and records it; an idle connection is closed")
    func stopWithExchangeInFlight() async throws {
        let harness = try RecorderHarness()
        let idle = try RawSocket(port: harness.port)
        let busy = try RawSocket(port: harness.port)
        busy.send("GET /slow-body HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(150))
        let bytes = try await harness.finish()
        let answer = await busy.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.hasSuffix("done"))
        #expect(await idle.readAll().isEmpty)
        let (_, exchanges) = try RecorderHarness.read(bytes)
        #expect(exchanges.map(\.path) == ["/slow-body"])
    }
}

/// A connected blocking socket for tests that hold connections open.
final class RawSocket: Sendable {
    let fd: Int32

    /// A connection whose reads give up after `readTimeout` seconds without a byte.
    init(port: UInt16, readTimeout: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard RawClient.connect(fd, port: port) else {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the peer closes (or 5 s pass without a byte), on a thread of its own: a
    /// blocking read on the concurrency pool would starve the proxy's own tasks under load.
    func readAll() async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readBlocking()) }
        }
    }

    /// Reads until the peer closes (or 5 s pass without a byte), blocking the calling thread.
    func readBlocking() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() { _ = shutdown(fd, Int32(SHUT_RDWR)) }

    /// Shuts the write side: the peer reads the end of the stream.
    func finishSending() { _ = shutdown(fd, Int32(SHUT_WR)) }
}

/// A string produced on a thread of its own, awaited without blocking the concurrency pool.
final class ThreadReply: Sendable {
    private let text = Mutex<String?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func deliver(_ value: String) {
        text.withLock { $0 = value }
        ready.signal()
    }

    func value() async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                self.ready.wait()
                continuation.resume(returning: self.text.withLock { $0 } ?? "")
            }
        }
    }
}
