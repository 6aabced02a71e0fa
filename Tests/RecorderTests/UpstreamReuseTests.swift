import Foundation
import Glibc
import Synchronization
import Testing

/// An upstream that answers each request on a kept-alive connection and closes the connection
/// `idleClose` seconds after its last answer (or right after it, saying so, with
/// `closeEach`), counting the connections it accepted.
final class ClosingUpstream: Sendable {
    let port: UInt16
    private let listener: Int32
    private let accepted = SharedCount()
    private let closed = SharedCount()

    init(idleClose: Double, closeEach: Bool = false) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard let port = RawClient.bindLoopback(listener), listen(listener, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        self.port = port
        let accepted = accepted
        let closed = closed
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let number = accepted.value.add(1, ordering: .relaxed).newValue
                Thread.detachNewThread {
                    Self.serve(fd, connection: number, idleClose: idleClose, closeEach: closeEach)
                    closed.value.add(1, ordering: .relaxed)
                }
            }
        }
    }

    var connections: Int { accepted.value.load(ordering: .relaxed) }

    /// Waits until `count` connections were closed here, for at most ten seconds.
    func waitForClosed(_ count: Int) async throws {
        for _ in 0..<1000 where closed.value.load(ordering: .relaxed) < count {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func stop() { _ = shutdown(listener, Int32(SHUT_RDWR)) }

    private static func serve(_ fd: Int32, connection: Int, idleClose: Double, closeEach: Bool) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(idleClose), tv_usec: Int((idleClose - Double(Int(idleClose))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var answered = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A timeout (idle past `idleClose`) or the peer's close ends the connection.
            guard count > 0 else { return }
            pending += buffer[..<count]
            while let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                pending.removeSubrange(..<end.upperBound)
                answered += 1
                let body = "connection \(connection) answer \(answered)"
                let close = closeEach ? "Connection: close\r\n" : ""
                let reply = Array("HTTP/1.1 200 OK\r\n\(close)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
                _ = reply.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if closeEach { return }
            }
        }
    }
}

/// A count shared with the upstream's threads.
final class SharedCount: Sendable {
    let value = Atomic<Int>(0)
}

@Suite("Recording proxy: idle upstream connections")
struct UpstreamReuseTests {
    static func get(_ port: UInt16, _ path: String) async -> RawClient.Reply {
        await RawClient.exchange(port: port, ["GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], timeout: 5)
    }

    @Test("an upstream that closes each connection after its answer: descriptor numbers reused, every request answered")
    func upstreamClosesEach() async throws {
        let upstream = try ClosingUpstream(idleClose: 30, closeEach: true)
        defer { upstream.stop() }
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(upstream.port)")
        for round in 1...8 {
            let reply = await Self.get(harness.port, "/round/\(round)")
            #expect(reply.body == "connection \(round) answer 1", "round \(round): \(reply.text)")
        }
        #expect(upstream.connections == 8)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 8)
    }

    @Test("an upstream that closes idle connections: each next request gets a new one, none fails or hangs")
    func upstreamClosesIdle() async throws {
        let upstream = try ClosingUpstream(idleClose: 0.05)
        defer { upstream.stop() }
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(upstream.port)")
        for round in 1...6 {
            let reply = await Self.get(harness.port, "/round/\(round)")
            #expect(reply.status == 200, "round \(round): \(reply.text)")
            #expect(reply.body == "connection \(round) answer 1")
            // After the upstream's idle close: the parked socket reports it, or libcurl's check
            // finds the connection dead first; either way the next request needs a new one.
            try await upstream.waitForClosed(round)
        }
        #expect(upstream.connections == 6)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 6)
        #expect(exchanges.allSatisfy { $0.responseHeaders[":accord-error"] == nil && $0.status == 200 })
    }

    @Test("an upstream that keeps connections: sequential requests reuse one connection per loop")
    func upstreamKeepsConnections() async throws {
        // Idle for longer than any run of the test takes, even on a loaded machine: with 30 s, a
        // run that took 57 s under a load of 20 counted a third connection, as a loop whose
        // connection sat idle past the upstream's close reconnects.
        let upstream = try ClosingUpstream(idleClose: 600)
        defer { upstream.stop() }
        let harness = try RecorderHarness(upstreamURL: "http://127.0.0.1:\(upstream.port)")
        // Each loop has its own connections, and a client connection may land on any loop: each
        // upstream connection must answer its requests in turn, and there are no more of them
        // than loops.
        var answered: [Int: Int] = [:]
        for round in 1...12 {
            let reply = await Self.get(harness.port, "/round/\(round)")
            let numbers = reply.body.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2 else {
                Issue.record("round \(round): \(reply.text)")
                continue
            }
            #expect(numbers[1] == answered[numbers[0], default: 0] + 1, "round \(round): \(reply.body)")
            answered[numbers[0]] = numbers[1]
        }
        #expect(upstream.connections >= 1 && upstream.connections <= harness.proxy.configuration.eventLoops)
        #expect(answered.values.reduce(0, +) == 12)
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        #expect(exchanges.count == 12)
    }
}
