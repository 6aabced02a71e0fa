import CLinux
import Glibc

/// Writes one response on a connection as it is produced: the head, then body pieces, then the
/// end. The body is framed by `Content-Length` when the length is known, else chunked for an
/// HTTP/1.1 request, else delimited by closing the connection. Used only on the connection's
/// thread, by the streaming handler the server called there; or, for a non-blocking connection,
/// by its event loop, the bytes then handed to an `HTTPOutput` (sent at once while nothing waits
/// there, else queued for the loop to send).
public final class HTTPResponseStream {
    private enum Framing {
        case none
        case length(remaining: Int)
        case chunked
        case close
    }

    private enum Target {
        case socket(Int32)
        case output(HTTPOutput)
    }

    private let target: Target
    private let version: HTTPVersion
    private let omitBody: Bool
    private let wantsKeepAlive: Bool
    private var framing = Framing.none
    private var scratch: [UInt8] = []
    /// The head, held back until the first body piece, `flush()` or `finish()`, so that a
    /// small response leaves in one send.
    private var pendingHead: [UInt8] = []
    /// The end of a length-framed body, held back until `finish()`: the peer sees the response
    /// complete only when the sender says it is (a recorder writes its line first). The whole
    /// last piece when it is small, so that a small response still leaves in one send, else
    /// its last byte.
    private var heldTail: [UInt8] = []
    /// The largest last piece held back whole.
    static let heldPieceLimit = 64 * 1024
    /// Whether the head was sent.
    public private(set) var headSent = false
    /// Whether the response was completed with `finish()`.
    public private(set) var finished = false
    /// Whether a send failed or the response was abandoned; the connection then closes.
    public private(set) var failed = false
    /// The body bytes sent so far, framing excluded.
    public private(set) var bodyBytesSent = 0

    init(fd: Int32, version: HTTPVersion, omitBody: Bool, keepAlive: Bool) {
        target = .socket(fd)
        self.version = version
        self.omitBody = omitBody
        self.wantsKeepAlive = keepAlive
    }

    /// Makes a stream that hands its bytes to `output` instead of sending them itself.
    /// - Parameters:
    ///   - output: the connection's output queue.
    ///   - version: the request's HTTP version.
    ///   - omitBody: whether the request was HEAD.
    ///   - keepAlive: whether the connection may stay open after the response.
    package init(output: HTTPOutput, version: HTTPVersion, omitBody: Bool, keepAlive: Bool) {
        target = .output(output)
        self.version = version
        self.omitBody = omitBody
        self.wantsKeepAlive = keepAlive
    }

    /// Whether the connection may serve another request after this response.
    package var keepsAlive: Bool {
        guard finished, !failed, wantsKeepAlive else { return false }
        if case .close = framing { return false }
        return true
    }

    /// How `wait(for:until:)` ended.
    public enum Wait: Sendable, Equatable {
        /// The wake-up rang.
        case woken
        /// The peer hung up (or reset the connection): nothing more can reach it.
        case peerGone
        /// The deadline passed.
        case deadline
    }

    /// Blocks the connection's thread, between two pieces of a long-lived body, until `wakeup`
    /// rings, the peer hangs up, or `deadline` passes: a stream that waits for data to change
    /// notices a client that left at once rather than at its next send, which may never come.
    /// A stream whose bytes an event loop sends has no thread to block: it waits for the
    /// wake-up or the deadline only.
    public func wait(for wakeup: Wakeup, until deadline: ContinuousClock.Instant?) -> Wait {
        var fds = [pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)]
        if case .socket(let fd) = target { fds.append(pollfd(fd: fd, events: Int16(ACCORD_POLLRDHUP), revents: 0)) }
        let clock = ContinuousClock()
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return .deadline }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                failed = true
                return .peerGone
            }
            let hangUp = Int32(ACCORD_POLLRDHUP) | Int32(POLLHUP) | Int32(POLLERR) | Int32(POLLNVAL)
            if fds.count > 1, Int32(fds[1].revents) & hangUp != 0 {
                failed = true
                return .peerGone
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                wakeup.consume()
                return .woken
            }
        }
    }

    /// Sends the status line and the header fields. `Content-Length`, `Transfer-Encoding`,
    /// `Connection` and `Keep-Alive` are dropped from `headers` and set by the stream; a `Date`
    /// is added when `headers` has none.
    /// - Parameters:
    ///   - status: the status code.
    ///   - reason: the reason phrase, or nil for the standard one.
    ///   - headers: the header fields, in order.
    ///   - contentLength: the body length when known, nil to stream with chunked framing.
    /// - Returns: false when the head was already sent or the peer is gone.
    @discardableResult
    public func sendHead(status: Int, reason: String? = nil, headers: HTTPHeaders, contentLength: Int?) -> Bool {
        guard !headSent, !failed else { return false }
        headSent = true
        let head = HTTPResponseHead(status: status, reason: reason, headers: headers)
        let bodyFraming = head.framing(contentLength: contentLength, version: version, omitBody: omitBody)
        switch bodyFraming {
        case .none: framing = .none
        case .length(let length): framing = omitBody ? .none : .length(remaining: length)
        case .chunked: framing = .chunked
        case .close: framing = .close
        }
        pendingHead = head.encoded(version: version, framing: bodyFraming, keepAlive: wantsKeepAlive, identity: .given)
        return true
    }

    /// Sends the head now if it is still held back (for a body that is slow to come). A head that
    /// is the whole response (a bodyless status, HEAD, a zero length) stays held until `finish()`.
    /// - Returns: false when the peer is gone.
    @discardableResult
    public func flush() -> Bool {
        // A head that is the whole response (no body, or a zero length) waits for `finish()`:
        // sent now, the peer would see the response complete before its sender says it is.
        switch framing {
        case .none, .length(remaining: 0): return !failed
        default: return sendPendingHead()
        }
    }

    private func sendPendingHead() -> Bool {
        guard !pendingHead.isEmpty, !failed else { return !failed }
        defer { pendingHead.removeAll() }
        return deliver(pendingHead)
    }

    /// Sends a piece of the body, framed as the head announced; bytes past a declared length
    /// are dropped, and nothing is sent for HEAD or a bodyless status.
    /// - Parameter bytes: the piece.
    /// - Returns: false when the peer is gone (the response is then failed).
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard headSent, !failed, !finished else { return false }
        guard !bytes.isEmpty else { return true }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: pendingHead)
        pendingHead.removeAll()
        switch framing {
        case .none:
            return scratch.isEmpty || deliver(scratch)
        case .length(let remaining):
            let count = min(remaining, bytes.count)
            framing = .length(remaining: remaining - count)
            bodyBytesSent += count
            var end = count
            if remaining - count == 0 && count > 0 {
                end = count <= Self.heldPieceLimit ? 0 : count - 1
                heldTail = Array(bytes[end..<count])
                if end == 0 {
                    // Nothing leaves now: the head, if still pending, goes with the held piece.
                    pendingHead = scratch
                    return true
                }
            }
            guard !scratch.isEmpty else { return end == 0 || deliver(UnsafeRawBufferPointer(rebasing: bytes[0..<end])) }
            scratch.append(contentsOf: bytes[0..<end])
            return deliver(scratch)
        case .chunked:
            // The piece leaves from where it is, framed by a gather write: no copy of the body.
            scratch.append(contentsOf: String(bytes.count, radix: 16).utf8)
            scratch.append(contentsOf: [0x0D, 0x0A])
            bodyBytesSent += bytes.count
            let crlf: StaticString = "\r\n"
            return scratch.withUnsafeBytes { framing in
                deliver([framing, bytes, UnsafeRawBufferPointer(start: crlf.utf8Start, count: 2)])
            }
        case .close:
            bodyBytesSent += bytes.count
            guard !scratch.isEmpty else { return deliver(bytes) }
            scratch.append(contentsOf: bytes)
            return deliver(scratch)
        }
    }

    /// Sends a piece of the body.
    /// - Parameter bytes: the piece.
    /// - Returns: false when the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { send($0) } }

    /// Ends the body: the last chunk for chunked framing; a declared length not reached fails
    /// the response, so the connection closes rather than hang the peer.
    /// - Returns: false when the response could not be completed.
    @discardableResult
    public func finish() -> Bool {
        guard headSent, !failed, !finished else { return false }
        switch framing {
        case .chunked:
            let last = pendingHead + Array("0\r\n\r\n".utf8)
            pendingHead.removeAll()
            guard deliver(last) else { return false }
        case .length(let remaining) where remaining > 0:
            failed = true
            return false
        case .length:
            let last = pendingHead + heldTail
            pendingHead.removeAll()
            heldTail.removeAll()
            guard last.isEmpty || deliver(last) else { return false }
        default:
            guard sendPendingHead() else { return false }
        }
        finished = true
        return true
    }

    /// Abandons the response: nothing more is sent and the connection closes, so a peer reading
    /// a chunked or length-framed body sees it cut short rather than complete.
    public func abort() { failed = true }

    /// Sends a whole response at once, `Content-Length` framed.
    /// - Parameter response: the response; its `Server` header is kept as given.
    /// - Returns: false when the head was already sent or the peer is gone.
    @discardableResult
    public func respond(_ response: HTTPResponse) -> Bool {
        let bodyless = HTTPResponseHead.isBodyless(response.status)
        guard sendHead(status: response.status, headers: response.headers, contentLength: bodyless ? nil : response.body.count)
        else { return false }
        return send(response.body) && finish()
    }

    /// Sends the pieces in order with as few `sendmsg` calls as the socket allows.
    private func deliver(_ pieces: [UnsafeRawBufferPointer]) -> Bool {
        let fd: Int32
        switch target {
        case .socket(let socket): fd = socket
        case .output(let output):
            output.write(pieces)
            failed = failed || output.failed
            return !failed
        }
        var vectors = pieces.filter { !$0.isEmpty }.map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
        }
        var first = 0
        while first < vectors.count {
            let sent = vectors[first...].withUnsafeMutableBufferPointer { buffer -> Int in
                var message = msghdr()
                message.msg_iov = buffer.baseAddress
                message.msg_iovlen = buffer.count
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else {
                failed = true
                return false
            }
            first = vectors.withUnsafeMutableBufferPointer { buffer in
                Int(accord_iov_consume(buffer.baseAddress, Int32(buffer.count), Int32(first), sent))
            }
        }
        return true
    }

    private func deliver(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { deliver($0) }
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let fd: Int32
        switch target {
        case .socket(let socket): fd = socket
        case .output(let output):
            output.write([bytes])
            failed = failed || output.failed
            return !failed
        }
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else {
                failed = true
                return false
            }
            offset += sent
        }
        return true
    }

}
