import Foundation
import Glibc
import HTTP
import Testing

/// At its connection cap the server lets idle connections give way to new clients, and refuses
/// a new client only when every connection has a request in progress.
@Suite("Server connection cap")
struct ServerCapTests {
    /// A blocking loopback socket that the test holds open.
    private final class HeldSocket: Sendable {
        let fd: Int32

        init(port: UInt16) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(fd)
                throw POSIXError(.ECONNREFUSED)
            }
            // Long enough for a run whose other tests (chromium, driver processes) keep both cores
            // busy: a slow answer is not a wrong one, and a wrong one still fails, just later.
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        func send(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads until the peer closes or 60 s pass without a byte, on a thread of its own.
        func readAll() async -> String {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var bytes: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = recv(self.fd, &buffer, buffer.count, 0)
                        guard count > 0 else { break }
                        bytes.append(contentsOf: buffer[0..<count])
                    }
                    continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                }
            }
        }

        /// One receive (up to 4 KiB, or 60 s without a byte), on a thread of its own: a blocking
        /// read on the concurrency pool would starve the server's handler tasks.
        func readOnce() async -> Int {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    continuation.resume(returning: recv(self.fd, &buffer, buffer.count, 0))
                }
            }
        }

        /// Whether the peer has closed: a read at once finds the end of the stream.
        var isClosedByPeer: Bool {
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }
    }

    private static func waitUntil(_ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    private static func start(maxConnections: Int) throws -> HTTPServer {
        // A streaming handler answers on the connection's thread, not on the concurrency pool,
        // which other tests may keep busy; read and idle timeouts longer than any wait here keep
        // the connections held idle or in progress from timing out meanwhile, however slow the
        // run (a starved run can take over a minute here, past the default idle 60 s).
        try HTTPServer.start(
            HTTPServerConfiguration(
                readTimeout: .seconds(600), idleTimeout: .seconds(600), maxConnections: maxConnections, gracePeriod: .milliseconds(200))
        ) { request, stream in
            stream.respond(.text(status: 200, "served \(request.path)"))
        }
    }

    /// 96 connections, not serve's 256: the behaviour at the cap is the same, and each is two
    /// descriptors in this process, which runs many servers at once. serve's own cap of 256 is
    /// exercised from outside this process by HostileSurfaceTests (300 streams against the binary).
    @Test("with 96 idle connections open (the cap), a new client is served and the oldest idle one closed")
    func idleConnectionsGiveWay() async throws {
        let cap = 96
        let server = try Self.start(maxConnections: cap)
        var idle: [HeldSocket] = []
        for _ in 0..<cap { idle.append(try HeldSocket(port: server.port)) }
        try await Self.waitUntil { server.connectionCount == cap }
        #expect(server.connectionCount == cap)
        let client = try HeldSocket(port: server.port)
        client.send("GET /new HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let answer = await client.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
        #expect(answer.contains("served /new"))
        try await Self.waitUntil { idle[0].isClosedByPeer }
        #expect(idle[0].isClosedByPeer, "the oldest idle connection made room")
        #expect(!idle[cap - 1].isClosedByPeer, "a younger idle connection stays open")
        await server.stop()
    }

    @Test("a kept-alive connection idle after its answer gives way; one with a request arriving does not")
    func busyConnectionsStay() async throws {
        let server = try Self.start(maxConnections: 2)
        let answered = try HeldSocket(port: server.port)
        let arriving = try HeldSocket(port: server.port)
        try await Self.waitUntil { server.connectionCount == 2 }
        arriving.send("GET /warm HTTP/1.1\r\nHost: h\r\n\r\nGET /slow HTTP/1.1\r\n")
        answered.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(await answered.readOnce() > 0)
        #expect(await arriving.readOnce() > 0)
        let client = try HeldSocket(port: server.port)
        client.send("GET /new HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(await client.readAll().hasPrefix("HTTP/1.1 200"))
        try await Self.waitUntil { answered.isClosedByPeer }
        #expect(answered.isClosedByPeer)
        arriving.send("Host: h\r\nConnection: close\r\n\r\n")
        #expect(await arriving.readAll().contains("served /slow"))
        await server.stop()
    }

    @Test("when every connection has a request in progress, a new client gets 503")
    func allBusy() async throws {
        let server = try Self.start(maxConnections: 2)
        let first = try HeldSocket(port: server.port)
        let second = try HeldSocket(port: server.port)
        // A whole request, answered, then the start of the next: once the answer is back, the
        // server holds the partial request (one segment), so the connection is busy.
        for (socket, path) in [(first, "/a"), (second, "/b")] {
            socket.send("GET /warm HTTP/1.1\r\nHost: h\r\n\r\nGET \(path) HTTP/1.1\r\n")
            #expect(await socket.readOnce() > 0)
        }
        let refused = try HeldSocket(port: server.port)
        let answer = await refused.readAll()
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
        first.send("Host: h\r\nConnection: close\r\n\r\n")
        #expect(await first.readAll().contains("served /a"))
        await server.stop()
    }
}
