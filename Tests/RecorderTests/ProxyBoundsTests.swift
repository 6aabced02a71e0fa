import Foundation
import Glibc
import Testing

@testable import Recorder

/// What one hostile client cannot do to the proxy: hold every connection slot with idle
/// sockets, or make it buffer request bytes without bound.
@Suite("Recording proxy: connection cap and buffer budget")
struct ProxyBoundsTests {
    /// Waits (up to 10 s) until `condition` holds.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Whether the peer has closed `socket`: a read at once finds the end of the stream.
    private static func isClosedByPeer(_ socket: RawSocket) -> Bool {
        var byte: UInt8 = 0
        return recv(socket.fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    @Test("with 512 idle connections open (the default cap), a new client is served and the oldest idle one closed")
    func idleConnectionsGiveWay() async throws {
        let harness = try RecorderHarness()
        let cap = harness.proxy.configuration.maxConnections
        #expect(cap == 512)
        var idle: [RawSocket] = []
        for _ in 0..<cap { idle.append(try RawSocket(port: harness.port)) }
        try await Self.waitUntil { harness.proxy.statistics.openConnections == cap }
        #expect(harness.proxy.statistics.openConnections == cap)
        // The loops publish their oldest idle connection at each sweep.
        try await Task.sleep(for: .milliseconds(250))
        let reply = await RawClient.exchange(port: harness.port, ["GET /echo?new=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 200, "\(reply.text.prefix(200))")
        #expect(reply.body.contains("new=1"))
        try await Self.waitUntil { Self.isClosedByPeer(idle[0]) }
        #expect(Self.isClosedByPeer(idle[0]), "the oldest idle connection made room")
        #expect(!Self.isClosedByPeer(idle[cap - 1]), "a younger idle connection stays open")
        for socket in idle { socket.close() }
        _ = try await harness.finish()
    }

    @Test("a second new client at the cap is served too: idle connections give way one by one")
    func severalNewClients() async throws {
        let harness = try RecorderHarness(maxConnections: 4, eventLoops: 2)
        let idle = try (0..<4).map { _ in try RawSocket(port: harness.port) }
        try await Self.waitUntil { harness.proxy.statistics.openConnections == 4 }
        for index in 0..<3 {
            let reply = await RawClient.exchange(
                port: harness.port, ["GET /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            #expect(reply.status == 200, "client \(index): \(reply.text.prefix(200))")
        }
        for socket in idle { socket.close() }
        _ = try await harness.finish()
    }

    @Test("past the buffer budget across connections, a request arriving is answered 503; the others go on")
    func budgetRefuses() async throws {
        let budget = 1 << 20
        let harness = try RecorderHarness(bufferBudget: budget)
        let first = try RawSocket(port: harness.port)
        first.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\nConnection: close\r\n\r\n" + String(repeating: "a", count: 800_000)
        )
        try await Self.waitUntil { harness.proxy.budget.held >= 800_000 }
        #expect(harness.proxy.budget.held >= 800_000)
        let body = String(repeating: "b", count: 400_000)
        let refused = await RawClient.exchange(
            port: harness.port, ["POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 400000\r\n\r\n" + body])
        #expect(refused.status == 503, "\(refused.text.prefix(200))")
        #expect(refused.body.contains("buffer budget"))
        first.send(String(repeating: "a", count: 100_000))
        let answer = await first.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(harness.proxy.budget.peak <= budget + 64 * 1024)
        try await Self.waitUntil { harness.proxy.budget.held == 0 }
        #expect(harness.proxy.budget.held == 0)
        _ = try await harness.finish()
    }

    @Test("pipelined requests behind a slow one are read only as far as the budget allows, then all answered")
    func pipeliningStopsAtBudget() async throws {
        let budget = 1 << 20
        let harness = try RecorderHarness(bufferBudget: budget)
        let client = try RawSocket(port: harness.port)
        let body = String(repeating: "p", count: 256 * 1024)
        var pipelined = "GET /slow-body HTTP/1.1\r\nHost: x\r\n\r\n"
        for index in 0..<12 {
            let close = index == 11 ? "Connection: close\r\n" : ""
            pipelined += "POST /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\(close)\r\n" + body
        }
        let bytes = pipelined
        Thread.detachNewThread { client.send(bytes) }
        let answer = Task { await client.readAll() }
        // The slow answer takes 500 ms; meanwhile the connection has read up to the budget
        // and stopped, leaving the rest (over 2 MiB) with the client.
        try await Task.sleep(for: .milliseconds(300))
        let held = harness.proxy.budget.held
        #expect(held >= budget && held <= budget + 64 * 1024, "held \(held)")
        let text = await answer.value
        #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 13, "\(text.prefix(300))")
        #expect(text.contains("n=11"))
        #expect(harness.proxy.budget.peak <= budget + 64 * 1024)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 13)
    }
}
