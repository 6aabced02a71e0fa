import Glibc

/// The socket calls of a server that serves many connections per thread from an event loop:
/// every descriptor is non-blocking, and a call that would block says so instead.
package enum NonBlockingSocket {
    /// What one receive gave.
    package enum Received: Equatable {
        /// This many bytes were appended.
        case bytes(Int)
        /// Nothing is available now.
        case wouldBlock
        /// The peer closed its side, or the connection failed.
        case closed
    }

    /// Binds and listens on a numeric address; the listener is non-blocking.
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address, or "localhost".
    ///   - port: the port, 0 for an ephemeral one.
    /// - Returns: the listening descriptor and the address bound.
    /// - Throws: `HTTPError` when the address cannot be bound.
    package static func listen(host: String, port: UInt16) throws(HTTPError) -> (Int32, HTTPEndpoint) {
        let (fd, endpoint) = try Socket.listen(host: host, port: port, backlog: 1024)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return (fd, endpoint)
    }

    /// Accepts one waiting connection, non-blocking, close-on-exec and without Nagle's delay.
    /// - Parameter listener: a non-blocking listening descriptor.
    /// - Returns: the connection and its peer, or nil when none waits (or accept failed).
    package static func accept(_ listener: Int32) -> (Int32, HTTPEndpoint)? {
        // `Socket.accept` leaves errno as accept(2) set it when it fails (the caller reads it).
        guard let (fd, peer) = Socket.accept(listener) else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return (fd, peer)
    }

    /// Appends what one `recv` gives (at most the scratch space's size, and `maximum`) to `buffer`.
    /// - Parameters:
    ///   - fd: a non-blocking socket.
    ///   - buffer: where the bytes go.
    ///   - scratch: space to receive into.
    ///   - maximum: the most bytes to take (more than zero).
    /// - Returns: the count, `wouldBlock`, or `closed` at end of stream or on an error.
    package static func receive(
        _ fd: Int32, into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer, maximum: Int = .max
    ) -> Received {
        while true {
            let received = recv(fd, scratch.baseAddress, min(scratch.count, maximum), 0)
            if received > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<received]))
                return .bytes(received)
            }
            if received < 0 && errno == EINTR { continue }
            if received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .closed
        }
    }

    /// Reads and drops what is available, up to the scratch space's size.
    /// - Parameters:
    ///   - fd: a non-blocking socket.
    ///   - scratch: space to receive into.
    /// - Returns: what the receive gave.
    package static func discard(_ fd: Int32, scratch: UnsafeMutableRawBufferPointer) -> Received {
        while true {
            let received = recv(fd, scratch.baseAddress, scratch.count, 0)
            if received > 0 { return .bytes(received) }
            if received < 0 && errno == EINTR { continue }
            if received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .closed
        }
    }
}
