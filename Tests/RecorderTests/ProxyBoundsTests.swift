import Foundation
import Glibc
import Testing

@testable import Recorder

/// What one hostile client cannot do to the proxy: hold every connection slot with idle
/// sockets, or make it buffer request bytes without bound.
@Suite("Recording proxy: connection cap and buffer budget")
struct ProxyBoundsTests {
    /// Sends on a thread of its own: a send the proxy is slow to take must not hold a thread of
    /// the concurrency pool.
    private static func sendAside(_ socket: RawSocket, _ text: String) {
        Thread.detachNewThread { socket.send(text) }
    }

    /// Whether the peer has closed `socket`: a read at once finds the end of the stream.
    private static func isClosedByPeer(_ socket: RawSocket) -> Bool {
        var byte: UInt8 = 0
        return recv(socket.fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    @Test("the default connection cap is 512")
    func defaultCap() throws {
        let configuration = try RecorderConfiguration(upstream: "http://127.0.0.1:1", output: "/tmp/unused.jsonl")
        #expect(configuration.maxConnections == 512)
    }

    /// The cap is 128 here, not the default 512 (pinned above): the behaviour at the cap is the
    /// same, and the test process, which runs many servers at once, holds a quarter of the sockets.
    @Test("with 128 idle connections open (the cap), a new client is served and one of the oldest idle ones closed")
    func idleConnectionsGiveWay() async throws {
        let cap = 128
        // Idle and read timeouts longer than any wait here: on a busy machine this test can take
        // over a minute, and an idle connection timed out is not one that gave way.
        let harness = try RecorderHarness(readTimeout: .seconds(600), idleTimeout: .seconds(600), maxConnections: cap)
        #expect(harness.proxy.configuration.maxConnections == cap)
        var idle: [RawSocket] = []
        for _ in 0..<cap { idle.append(try RawSocket(port: harness.port)) }
        try await RecorderHarness.waitUntil { harness.proxy.statistics.openConnections == cap }
        #expect(harness.proxy.statistics.openConnections == cap)
        // The loops publish their oldest idle connection at each sweep.
        try await Task.sleep(for: .milliseconds(250))
        let reply = await RawClient.exchange(port: harness.port, ["GET /echo?new=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        #expect(reply.status == 200, "\(reply.text.prefix(200))")
        #expect(reply.body.contains("new=1"))
        // One idle connection made room: one of the first opened (the loops take connections in
        // turn, so the very first may have been taken on a moment after the second).
        try await RecorderHarness.waitUntil { idle.contains(where: Self.isClosedByPeer) }
        let closed = idle.indices.filter { Self.isClosedByPeer(idle[$0]) }
        #expect(closed.count == 1 && closed.allSatisfy { $0 < 32 }, "closed: \(closed)")
        for socket in idle { socket.close() }
        _ = try await harness.finish()
    }

    @Test("a second new client at the cap is served too: idle connections give way one by one")
    func severalNewClients() async throws {
        let harness = try RecorderHarness(maxConnections: 4, eventLoops: 2)
        let idle = try (0..<4).map { _ in try RawSocket(port: harness.port) }
        try await RecorderHarness.waitUntil { harness.proxy.statistics.openConnections == 4 }
        for index in 0..<3 {
            let reply = await RawClient.exchange(
                port: harness.port, ["GET /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            #expect(reply.status == 200, "client \(index): \(reply.text.prefix(200))")
        }
        for socket in idle { socket.close() }
        _ = try await harness.finish()
    }

    /// The most the budget's count reaches: the budget, one receive per connection, and the
    /// second copy of the largest body forwarded (libcurl's, charged once the body is whole).
    static func bound(_ budget: Int, largestBody: Int) -> Int { budget + 64 * 1024 + largestBody }

    @Test("past three quarters of the buffer budget, a request arriving is answered 503, refused at its head; the others go on")
    func budgetRefuses() async throws {
        let budget = 1 << 20
        // A read timeout far beyond any stall: a loaded test run has paused every test for over 60 s,
        // and the requests held unfinished must not time out meanwhile (this test is about room).
        let harness = try RecorderHarness(readTimeout: .seconds(600), bufferBudget: budget)
        let first = try RawSocket(port: harness.port)
        Self.sendAside(
            first,
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 350000\r\nConnection: close\r\n\r\n" + String(repeating: "a", count: 300_000)
        )
        // Charged whole from its head on, twice (its forwarded copies), though 50 KB are to come.
        try await RecorderHarness.waitUntil { harness.proxy.budget.held >= 700_000 }
        #expect(harness.proxy.budget.held >= 700_000)
        let body = String(repeating: "b", count: 200_000)
        let refused = await RawClient.exchange(
            port: harness.port, ["POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n" + body])
        #expect(refused.status == 503, "\(refused.text.prefix(200))")
        #expect(refused.body.contains("buffer budget"))
        first.send(String(repeating: "a", count: 50_000))
        let answer = await first.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(harness.proxy.budget.peak <= Self.bound(budget, largestBody: 400_000))
        try await RecorderHarness.waitUntil { harness.proxy.budget.held == 0 }
        #expect(harness.proxy.budget.held == 0)
        _ = try await harness.finish()
    }

    @Test("pipelined requests behind a slow one are read only into the room the buffer has, then all answered")
    func pipeliningReadsIntoRoom() async throws {
        let budget = 1 << 20
        // Timeouts far beyond any stall (the proxy's reads, the client's, the waits): a loaded test
        // run has starved every test for over 60 s, and nothing held unfinished may give up
        // meanwhile (this test is about room, not time).
        let harness = try RecorderHarness(readTimeout: .seconds(600), bufferBudget: budget)
        let client = try RawSocket(port: harness.port, readTimeout: 600)
        let body = String(repeating: "p", count: 256 * 1024)
        let gate = UUID().uuidString
        var pipelined = "GET /gated?\(gate) HTTP/1.1\r\nHost: x\r\n\r\n"
        for index in 0..<12 {
            let close = index == 11 ? "Connection: close\r\n" : ""
            pipelined += "POST /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\(close)\r\n" + body
        }
        let bytes = pipelined
        Thread.detachNewThread { client.send(bytes) }
        // Until the gate opens, the connection fills its buffer's room (one receive, 64 KiB) and
        // stops, leaving the rest (3 MiB) with the client.
        try await RecorderHarness.waitUntil(within: .seconds(600)) { harness.proxy.budget.held > 0 }
        try await Task.sleep(for: .milliseconds(300))
        let held = harness.proxy.budget.held
        #expect(held > 0 && held <= 64 * 1024, "held \(held)")
        RecorderHarness.open(gate: gate)
        let text = await client.readAll()
        #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 13, "\(text.prefix(300))")
        #expect(text.contains("n=11"))
        #expect(harness.proxy.budget.peak <= Self.bound(budget, largestBody: 256 * 1024))
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 13)
    }

    @Test("pipelined requests behind a slow one stop being read one receive short of three quarters of the budget, then all answered")
    func pipeliningStopsAtBudget() async throws {
        let budget = 1 << 20
        // Timeouts far beyond any stall (the proxy's reads, the client's, the waits): a loaded test
        // run has starved every test for over 60 s, and nothing held unfinished may give up
        // meanwhile (this test is about room, not time).
        let harness = try RecorderHarness(readTimeout: .seconds(600), bufferBudget: budget)
        // The pipelining connection's buffer keeps 350 KB of room from an earlier large request.
        let client = try RawSocket(port: harness.port, readTimeout: 600)
        Self.sendAside(client, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 350000\r\n\r\n" + String(repeating: "l", count: 350_000))
        try await RecorderHarness.waitUntil(within: .seconds(600)) {
            harness.proxy.statistics.exchanges >= 1 && harness.proxy.budget.held == 0
        }
        // Another connection holds an unfinished request of 250 KB (200 KB of it arrived),
        // charged twice: 500 KB.
        let holder = try RawSocket(port: harness.port, readTimeout: 600)
        Self.sendAside(
            holder,
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 250000\r\nConnection: close\r\n\r\n" + String(repeating: "h", count: 200_000)
        )
        try await RecorderHarness.waitUntil(within: .seconds(600)) { harness.proxy.budget.held >= 500_000 }
        let body = String(repeating: "p", count: 64 * 1024)
        let gate = UUID().uuidString
        var pipelined = "GET /gated?\(gate) HTTP/1.1\r\nHost: x\r\n\r\n"
        for index in 0..<10 {
            let close = index == 9 ? "Connection: close\r\n" : ""
            pipelined += "POST /echo?n=\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\(close)\r\n" + body
        }
        let bytes = pipelined
        Thread.detachNewThread { client.send(bytes) }
        // Until the gate opens, the connection reads ahead while one more receive keeps the
        // connections within three quarters of the budget (its room would take more) and stops,
        // leaving the rest to the request arriving on the other connection.
        let stop = budget / 4 * 3 - 64 * 1024
        try await RecorderHarness.waitUntil(within: .seconds(600)) { harness.proxy.budget.held > stop }
        try await Task.sleep(for: .milliseconds(300))
        let held = harness.proxy.budget.held
        #expect(held > stop && held <= budget / 4 * 3, "held \(held)")
        holder.send(String(repeating: "h", count: 50_000))
        #expect(await holder.readAll().hasPrefix("HTTP/1.1 200"))
        RecorderHarness.open(gate: gate)
        let text = await client.readAll()
        // The large request's answer, the gated one's and the ten pipelined ones.
        #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 12, "\(text.prefix(300))")
        #expect(text.contains("n=9"))
        #expect(harness.proxy.budget.peak <= Self.bound(budget, largestBody: 350_000))
        _ = try await harness.finish()
    }
}
