import Foundation
import Glibc

/// A blocking TCP client for tests, run on its own thread (never on the concurrency pool): sends
/// raw bytes and reads the answer until the peer closes, timing the first body line.
enum RawClient {
    struct Reply: Sendable {
        var bytes: [UInt8]
        /// Seconds from sending to the first byte after the head's blank line that ends a line.
        var firstLineAfter: Double?
        /// Seconds from sending to the end of the head.
        var headAfter: Double?
        var total: Double

        var text: String { String(decoding: bytes, as: UTF8.self) }
        var status: Int? {
            let parts = text.split(separator: " ", maxSplits: 2)
            return parts.count > 1 ? Int(parts[1]) : nil
        }
        var body: String {
            guard let range = text.range(of: "\r\n\r\n") else { return "" }
            return String(text[range.upperBound...])
        }
    }

    /// Sends `chunks` (pausing `pause` seconds between them) and reads until the peer closes.
    /// With `slowRead`, it reads at most 16 KiB at a time, through a fixed 128 KiB receive buffer,
    /// and sleeps that many seconds after each read;
    /// with `stall`, it sleeps that many seconds once, after its first read.
    static func exchange(
        port: UInt16, _ chunks: [String], pause: Double = 0, timeout: Double = 15, slowRead: Double = 0, stall: Double = 0
    ) async -> Reply {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: blocking(port: port, chunks.map { Array($0.utf8) }, pause, timeout, slowRead, stall))
            }
        }
    }

    /// Sends `bytes` and reads until the peer closes.
    static func exchange(port: UInt16, bytes: [UInt8], timeout: Double = 15) async -> Reply {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: blocking(port: port, [bytes], 0, timeout, 0, 0)) }
        }
    }

    /// Connects `fd` to 127.0.0.1:`port`; false when the connection was refused.
    static func connect(_ fd: Int32, port: UInt16) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Binds `fd` to 127.0.0.1 on a port the system picks.
    /// - Returns: the port, or nil when binding failed.
    static func bindLoopback(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    private static func blocking(
        port: UInt16, _ chunks: [[UInt8]], _ pause: Double, _ timeout: Double, _ slowRead: Double, _ stall: Double
    ) -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        if slowRead > 0 {
            // A fixed receive buffer: autotuning could grow it to tens of MiB on loopback, and
            // the kernel would then hold what a slow reader is meant to leave with the sender.
            var size: Int32 = 128 * 1024
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let connected = connect(fd, port: port)
        let start = Date()
        guard connected else { return Reply(bytes: [], firstLineAfter: nil, headAfter: nil, total: 0) }
        for (index, chunk) in chunks.enumerated() {
            if index > 0 && pause > 0 { Thread.sleep(forTimeInterval: pause) }
            _ = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var bytes: [UInt8] = []
        var firstLine: Double?
        var headDone: Double?
        var buffer = [UInt8](repeating: 0, count: slowRead > 0 ? 16384 : 65536)
        while Date().timeIntervalSince(start) < timeout {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            if bytes.isEmpty && stall > 0 { Thread.sleep(forTimeInterval: stall) }
            bytes.append(contentsOf: buffer[0..<count])
            if slowRead > 0 { Thread.sleep(forTimeInterval: slowRead) }
            if headDone == nil, bytes.firstRange(of: Array("\r\n\r\n".utf8)) != nil { headDone = Date().timeIntervalSince(start) }
            if firstLine == nil, let head = bytes.firstRange(of: Array("\r\n\r\n".utf8)),
                bytes[head.upperBound...].contains(UInt8(ascii: "}"))
            {
                firstLine = Date().timeIntervalSince(start)
            }
        }
        return Reply(bytes: bytes, firstLineAfter: firstLine, headAfter: headDone, total: Date().timeIntervalSince(start))
    }
}
