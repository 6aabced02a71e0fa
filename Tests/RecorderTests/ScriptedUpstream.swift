import Foundation
import Glibc
import Synchronization
import Testing

/// An upstream that answers each request with raw bytes chosen by its path, byte for byte as
/// given (framing errors included), then closes the connection; it counts the requests it read.
final class ScriptedUpstream: Sendable {
    let port: UInt16
    private let listener: Int32
    private let requests = SharedCount()
    private let received = ReceivedHeads()

    /// Starts listening on 127.0.0.1.
    /// - Parameter replies: the raw answer for each request path; other paths get a 404.
    convenience init(_ replies: [String: String]) throws {
        try self.init(bytes: replies.mapValues { Array($0.utf8) })
    }

    /// Starts listening on 127.0.0.1.
    /// - Parameter replies: the answer's bytes for each request path; other paths get a 404.
    init(bytes replies: [String: [UInt8]]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard let port = RawClient.bindLoopback(listener), listen(listener, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        self.port = port
        let requests = requests
        let received = received
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                Thread.detachNewThread {
                    Self.serve(fd, replies) { head in
                        requests.value.add(1, ordering: .relaxed)
                        received.value.withLock { $0.append(head) }
                    }
                }
            }
        }
    }

    /// The requests read so far.
    var count: Int { requests.value.load(ordering: .relaxed) }

    /// The heads of the requests read so far, as bytes, in the order they were read.
    var heads: [[UInt8]] { received.value.withLock { $0 } }

    /// Stops accepting connections.
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ fd: Int32, _ replies: [String: [UInt8]], counted: ([UInt8]) -> Void) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            pending += buffer[..<count]
        }
        counted(Array(pending[..<(pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? pending.endIndex)]))
        let line = String(decoding: pending.prefix { $0 != 0x0D }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1]) : ""
        let reply = replies[path] ?? Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = reply.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// The request heads a `ScriptedUpstream` read, shared with its threads.
final class ReceivedHeads: Sendable {
    let value = Mutex<[[UInt8]]>([])
}
