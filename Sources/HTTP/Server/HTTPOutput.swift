import Glibc

/// The bytes waiting to go out on one non-blocking connection, in order: a response stream
/// writes to it (straight to the socket while nothing waits, when it has one), the connection's
/// event loop sends from its front as the socket takes them.
package final class HTTPOutput {
    private var bytes: [UInt8] = []
    private var start = 0
    /// The socket `write(_:)` sends to at once while nothing waits; nil to only queue.
    private let socket: Int32?
    /// Whether a send failed (the peer is gone); later appends are dropped.
    package private(set) var failed = false

    /// Makes an empty output.
    /// - Parameter socket: a non-blocking socket that `write(_:)` sends to directly while
    ///   nothing waits, so that bytes the socket takes at once are never copied; nil to queue
    ///   everything.
    package init(socket: Int32? = nil) { self.socket = socket }

    /// The bytes not sent yet.
    package var count: Int { bytes.count - start }

    /// Queues bytes behind those already waiting.
    /// - Parameter piece: the bytes, copied.
    package func append(_ piece: UnsafeRawBufferPointer) {
        guard !failed, !piece.isEmpty else { return }
        bytes.append(contentsOf: piece)
    }

    /// Sends pieces straight from where they are when nothing waits before them, with one gather
    /// write, and queues what the socket does not take (or everything, without a socket).
    /// - Parameter pieces: the bytes, in order; copied only if queued.
    package func write(_ pieces: [UnsafeRawBufferPointer]) {
        guard !failed else { return }
        guard let socket, count == 0 else {
            for piece in pieces { append(piece) }
            return
        }
        var vectors = pieces.compactMap { piece in
            piece.isEmpty ? nil : iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
        }
        var sent = vectors.withUnsafeMutableBufferPointer { buffer -> Int in
            var message = msghdr()
            message.msg_iov = buffer.baseAddress
            message.msg_iovlen = buffer.count
            return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 {
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return fail() }
            sent = 0
        }
        for piece in pieces {
            if sent >= piece.count {
                sent -= piece.count
                continue
            }
            append(UnsafeRawBufferPointer(rebasing: piece[sent...]))
            sent = 0
        }
    }

    /// Marks the output failed and drops what waits: the peer will never read it.
    package func fail() {
        failed = true
        bytes.removeAll()
        start = 0
    }

    /// Sends as much as the socket takes without blocking.
    /// - Returns: the bytes sent; a failed send marks the output failed.
    @discardableResult
    package func send(to fd: Int32) -> Int {
        var total = 0
        while !failed, start < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + start }, raw.count - start, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                fail()
                break
            }
            start += sent
            total += sent
        }
        if start == bytes.count {
            // Emptied: keep the capacity, reuse it from the front.
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            start = 0
        } else if start >= 1 << 20 {
            bytes.removeFirst(start)
            start = 0
        }
        return total
    }
}
