import Foundation
import Synchronization
import Testing

@testable import HTTP

/// A connected socket pair: the stream writes on `server`, a thread drains `client`.
final class SocketPeer: Sendable {
    let server: Int32
    let client: Int32
    private let received = Mutex<[[UInt8]]>([])
    private let done = DispatchSemaphore(value: 0)

    init(type: Int32) throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw POSIXError(.EIO) }
        server = fds[0]
        client = fds[1]
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.withLock { $0.append(Array(buffer[0..<count])) }
            }
            done.signal()
        }
    }

    /// Every read so far (one per message on a SOCK_SEQPACKET pair).
    var reads: [[UInt8]] { received.withLock { $0 } }
    var bytes: [UInt8] { reads.flatMap { $0 } }

    /// Waits until at least `count` bytes arrived, then a moment more to catch any excess.
    func settle(atLeast count: Int) -> [UInt8] {
        let deadline = Date().addingTimeInterval(5)
        while bytes.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        Thread.sleep(forTimeInterval: 0.05)
        return bytes
    }

    /// Closes the writing end and waits for the reader to see the end.
    func finish() {
        shutdown(server, Int32(SHUT_WR))
        done.wait()
        close(server)
        close(client)
    }
}

@Suite("Response stream: what the peer can read before and after finish()")
struct ResponseStreamTests {
    static func stream(_ peer: SocketPeer) -> HTTPResponseStream {
        HTTPResponseStream(fd: peer.server, version: .http11, omitBody: false, keepAlive: true)
    }

    static let headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Date": "Thu, 01 Jan 2026 00:00:00 GMT"]

    static func body(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    static func head(_ length: Int) -> [UInt8] {
        Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT\r\nContent-Length: \(length)\r\n\r\n"
                .utf8)
    }

    @Test("a small response: nothing readable before finish(), then head and body in one send")
    func smallResponse() throws {
        let peer = try SocketPeer(type: Int32(SOCK_SEQPACKET.rawValue))
        let stream = Self.stream(peer)
        let body = Self.body(2_048)
        #expect(stream.sendHead(status: 200, headers: Self.headers, contentLength: body.count))
        #expect(stream.send(body))
        #expect(peer.settle(atLeast: 0).isEmpty, "bytes left before finish()")
        #expect(stream.finish())
        _ = peer.settle(atLeast: Self.head(body.count).count + body.count)
        #expect(peer.reads.count == 1, "sends: \(peer.reads.map(\.count))")
        #expect(peer.bytes == Self.head(body.count) + body)
        #expect(stream.finished && !stream.failed && stream.keepsAlive && stream.bodyBytesSent == body.count)
        peer.finish()
    }

    @Test("a last piece of 64 KiB is held whole, one byte more leaves all but its last byte")
    func heldPieceLimit() throws {
        for size in [HTTPResponseStream.heldPieceLimit, HTTPResponseStream.heldPieceLimit + 1] {
            let peer = try SocketPeer(type: Int32(SOCK_STREAM.rawValue))
            let stream = Self.stream(peer)
            let body = Self.body(size)
            stream.sendHead(status: 200, headers: Self.headers, contentLength: size)
            #expect(stream.send(body))
            let before = peer.settle(atLeast: size > HTTPResponseStream.heldPieceLimit ? Self.head(size).count + size - 1 : 0)
            #expect(before == (size > HTTPResponseStream.heldPieceLimit ? Self.head(size) + body.dropLast() : []), "size \(size)")
            #expect(stream.finish())
            #expect(peer.settle(atLeast: Self.head(size).count + size) == Self.head(size) + body)
            peer.finish()
        }
    }

    @Test("a 200 KB single piece: all but the last byte before finish(), the last byte after")
    func largePiece() throws {
        let peer = try SocketPeer(type: Int32(SOCK_STREAM.rawValue))
        let stream = Self.stream(peer)
        let body = Self.body(200_000)
        stream.sendHead(status: 200, headers: Self.headers, contentLength: body.count)
        #expect(stream.send(body))
        let whole = Self.head(body.count) + body
        #expect(peer.settle(atLeast: whole.count - 1) == Array(whole.dropLast()))
        #expect(stream.finish())
        #expect(peer.settle(atLeast: whole.count) == whole)
        peer.finish()
    }

    @Test("a body in several pieces: earlier pieces leave at once, the small last one only at finish()")
    func severalPieces() throws {
        let peer = try SocketPeer(type: Int32(SOCK_STREAM.rawValue))
        let stream = Self.stream(peer)
        let body = Self.body(150_000)
        let cuts = [0, 1, 70_000, 70_001, 149_000, 150_000]
        stream.sendHead(status: 200, headers: Self.headers, contentLength: body.count + 10)
        var sent = Self.head(body.count + 10)
        for (from, to) in zip(cuts, cuts.dropFirst()) {
            #expect(stream.send(Array(body[from..<to])))
            sent += body[from..<to]
            #expect(peer.settle(atLeast: sent.count) == sent, "after piece \(from)..<\(to)")
        }
        // Past the declared length is dropped; the last 10 bytes are held until finish().
        #expect(stream.send(Array(repeating: 0x41, count: 20)))
        #expect(peer.settle(atLeast: sent.count) == sent)
        #expect(stream.bodyBytesSent == body.count + 10)
        #expect(stream.finish())
        #expect(peer.settle(atLeast: sent.count + 10) == sent + Array(repeating: 0x41, count: 10))
        #expect(!stream.send([1]) && !stream.finish())
        peer.finish()
    }

    @Test("respond() sends a whole response in one send; an empty body too")
    func respond() throws {
        for count in [0, 10, 5_000] {
            let peer = try SocketPeer(type: Int32(SOCK_SEQPACKET.rawValue))
            let stream = Self.stream(peer)
            let body = Self.body(count)
            #expect(stream.respond(HTTPResponse(status: 200, headers: Self.headers, body: body)))
            _ = peer.settle(atLeast: Self.head(count).count + count)
            #expect(peer.reads == [Self.head(count) + body], "body of \(count) bytes")
            #expect(stream.finished && stream.keepsAlive)
            peer.finish()
        }
    }

    @Test("finish() before the declared length is reached fails and sends nothing more")
    func shortBody() throws {
        let peer = try SocketPeer(type: Int32(SOCK_STREAM.rawValue))
        let stream = Self.stream(peer)
        stream.sendHead(status: 200, headers: Self.headers, contentLength: 100)
        #expect(stream.send(Self.body(99)))
        let before = peer.settle(atLeast: Self.head(100).count + 99)
        #expect(before == Self.head(100) + Self.body(99))
        #expect(!stream.finish())
        #expect(stream.failed && !stream.finished && !stream.keepsAlive)
        #expect(peer.settle(atLeast: before.count) == before)
        peer.finish()
    }
}

@Suite("HTTPResponseStream into an HTTPOutput queue")
struct ResponseStreamOutputTests {
    @Test("a head that is the whole response (204, HEAD, zero length) is held by flush() until finish()")
    func wholeHeadHeldUntilFinish() {
        for (status, omitBody, length) in [(204, false, 0), (200, true, 5), (200, false, 0)] {
            let output = HTTPOutput()
            let stream = HTTPResponseStream(output: output, version: .http11, omitBody: omitBody, keepAlive: true)
            stream.sendHead(status: status, headers: ["Date": "x"], contentLength: length)
            #expect(stream.flush())
            #expect(output.count == 0, "status \(status), HEAD \(omitBody): nothing may leave before finish()")
            #expect(stream.finish())
            #expect(output.count > 0)
        }
    }

    @Test("a head with a body to come is queued by flush(); the body's last piece waits for finish()")
    func headWithBodyQueued() {
        let output = HTTPOutput()
        let stream = HTTPResponseStream(output: output, version: .http11, omitBody: false, keepAlive: true)
        stream.sendHead(status: 200, headers: ["Date": "x"], contentLength: 4)
        #expect(stream.flush())
        let head = output.count
        #expect(head > 0)
        stream.send(Array("done".utf8))
        #expect(output.count == head)
        #expect(stream.finish())
        #expect(output.count == head + 4)
    }
}

@Suite("HTTPOutput with a socket: direct sends while nothing waits")
struct HTTPOutputSocketTests {
    /// A connected loopback TCP pair with small buffers (the writer non-blocking), so that a few
    /// hundred KiB fill it and sends stop part-way through a piece.
    static func pair() throws -> (Int32, Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(bind(listener, raw, length) == 0 && listen(listener, 1) == 0)
                try #require(getsockname(listener, raw, &length) == 0)
            }
        }
        let writer = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 8 * 1024
        _ = setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(connect(writer, raw, length) == 0)
            }
        }
        let reader = accept(listener, nil, nil)
        try #require(reader >= 0)
        _ = setsockopt(reader, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        return (writer, reader)
    }

    static func drain(_ fd: Int32, into received: inout [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            received += buffer[0..<count]
        }
    }

    @Test("pieces the socket takes are not queued; the rest is queued in order and sent later")
    func directThenQueued() throws {
        let (writer, reader) = try Self.pair()
        defer {
            close(writer)
            close(reader)
        }
        let output = HTTPOutput(socket: writer)
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var queuedOnce = false
        for round in 0..<64 {
            let pieces = [Array("\(round):".utf8), [UInt8](repeating: UInt8(round), count: 4_000 + round), Array("\r\n".utf8)]
            expected += pieces.joined()
            pieces[0].withUnsafeBytes { a in
                pieces[1].withUnsafeBytes { b in pieces[2].withUnsafeBytes { c in output.write([a, b, c]) } }
            }
            // Queued bytes that are not a whole number of pieces: a send stopped inside one.
            if output.count > 0 && output.count != pieces.map(\.count).reduce(0, +) { queuedOnce = true }
            if round % 8 == 7 {
                // The reader catches up now and then; the loop sends what waited.
                while output.count > 0 {
                    Self.drain(reader, into: &received)
                    output.send(to: writer)
                }
            }
        }
        while output.count > 0 {
            Self.drain(reader, into: &received)
            output.send(to: writer)
        }
        // What is still in flight arrives within a moment.
        var waited = 0
        while received.count < expected.count && waited < 400 {
            Self.drain(reader, into: &received)
            usleep(5_000)
            waited += 1
        }
        #expect(queuedOnce, "no send stopped part-way through a piece: the queue was not exercised")
        #expect(!output.failed)
        #expect(received == expected)
    }

    @Test("a closed peer fails the output and later writes are dropped")
    func closedPeer() throws {
        let (writer, reader) = try Self.pair()
        close(reader)
        defer { close(writer) }
        let output = HTTPOutput(socket: writer)
        // TCP takes the first bytes; the peer's reset makes a later send fail.
        for _ in 0..<100 where !output.failed {
            Array("hello".utf8).withUnsafeBytes { output.write([$0]) }
            usleep(10_000)
        }
        #expect(output.failed)
        Array("more".utf8).withUnsafeBytes { output.write([$0]) }
        #expect(output.count == 0)
    }
}
