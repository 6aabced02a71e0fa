import Dispatch
import Synchronization

/// One accepted connection, served on its own thread: read, parse, answer in order, until the
/// peer closes, asks to close, times out, sends something refused, or the server stops.
struct Connection: Sendable {
    let id: Int
    let slot: HTTPServer.Slot
    let peer: HTTPEndpoint
    let server: HTTPServer

    var fd: Int32 { slot.fd }

    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    func run() {
        defer { server.release(id, fd: fd) }
        // One receive buffer for the connection's life, not one allocation per read.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        let configuration = server.configuration
        let parser = HTTPRequestParser(limits: configuration.limits)
        let limits = configuration.limits
        let maximumBuffered = limits.body * 8 + limits.headerBlock + limits.requestLine + 64 * 1024
        let clock = ContinuousClock()
        var buffer: [UInt8] = []
        var start = 0
        var sentContinue = false
        // Where the parse of the request at `start` stopped: each read goes on from there.
        var progress = HTTPParseProgress()
        var requestDeadline = clock.now + configuration.readTimeout
        var idleDeadline = clock.now + configuration.idleTimeout
        while true {
            if start < buffer.count {
                switch parser.parse(buffer[start...], resuming: &progress) {
                case .complete(var request, let consumed):
                    start += consumed
                    sentContinue = false
                    if start == buffer.count {
                        buffer.removeAll(keepingCapacity: true)
                        start = 0
                    } else if start > 64 * 1024 {
                        buffer.removeFirst(start)
                        start = 0
                    }
                    request.listener = server.endpoint
                    request.peer = peer
                    guard serve(request) else { return }
                    requestDeadline = clock.now + configuration.readTimeout
                    idleDeadline = clock.now + configuration.idleTimeout
                    continue
                case .failed(let error):
                    refuse(error)
                    return
                case .incomplete(let expectsContinue):
                    if expectsContinue && !sentContinue {
                        guard Socket.sendAll(fd, Self.continueLine) else { return }
                        sentContinue = true
                    }
                    if buffer.count - start > maximumBuffered {
                        refuse(.bodyTooLarge("request framing over \(maximumBuffered) bytes"))
                        return
                    }
                }
            }
            let partial = start < buffer.count
            // Nothing arriving or being answered: the connection may be closed to make room.
            if !partial, !slot.markIdle(server.nanosecondsNow()) { return }
            let deadline = partial ? requestDeadline : idleDeadline
            let remaining = deadline - clock.now
            if remaining <= .zero {
                if partial { refuse(.timeout("request not received within \(configuration.readTimeout)")) }
                return
            }
            guard Socket.waitReadable(fd, milliseconds: Socket.milliseconds(remaining)) == .readable else { continue }
            if !partial { requestDeadline = clock.now + configuration.readTimeout }
            guard Socket.receive(fd, into: &buffer, scratch: scratch) > 0 else { return }
            if !partial, !slot.markActive() { return }
        }
    }

    /// Answers one request; false when the connection must close.
    private func serve(_ request: HTTPRequest) -> Bool {
        guard server.beginRequest(slot) else { return false }
        let handler: HTTPHandler
        switch server.responder {
        case .whole(let whole): handler = whole
        case .streaming(let streaming): return serveStreaming(request, streaming)
        }
        let response = Self.invoke(handler, request)
        if response.dropsConnection {
            _ = server.endRequest(slot)
            return false
        }
        let keepAlive = request.keepAlive && !response.closesConnection && !server.isStopping
        let bytes = response.serialized(
            version: request.version, keepAlive: keepAlive, omitBody: request.method == "HEAD", date: HTTPDate.now())
        let sent = Socket.sendAll(fd, bytes)
        let stopping = server.endRequest(slot)
        return sent && keepAlive && !stopping
    }

    /// Answers one request through a streaming handler on this thread; false when the connection must close.
    private func serveStreaming(_ request: HTTPRequest, _ handler: HTTPStreamingHandler) -> Bool {
        let stream = HTTPResponseStream(
            fd: fd, version: request.version, omitBody: request.method == "HEAD", keepAlive: request.keepAlive && !server.isStopping)
        handler(request, stream)
        if !stream.headSent && !stream.failed {
            _ = stream.respond(HTTPResponse.text(status: 500, "the handler gave no response"))
        } else if stream.headSent && !stream.finished && !stream.failed {
            _ = stream.finish()
        }
        let stopping = server.endRequest(slot)
        return stream.keepsAlive && !stopping
    }

    /// Answers a refused request and closes gently: the write side first, then unread input is
    /// drained for a moment so the peer reads the answer instead of a reset.
    private func refuse(_ error: HTTPError) {
        let response = server.configuration.errorResponse(error)
        guard Socket.sendAll(fd, response.serialized(keepAlive: false, date: HTTPDate.now())) else { return }
        Socket.drain(fd, for: .seconds(1), maximum: 8 * 1024 * 1024)
    }

    /// Runs the async handler from this connection's thread and waits for its answer.
    private static func invoke(_ handler: @escaping HTTPHandler, _ request: HTTPRequest) -> HTTPResponse {
        let slot = ResponseSlot()
        Task {
            let response = await handler(request)
            slot.response.withLock { $0 = response }
            slot.done.signal()
        }
        slot.done.wait()
        return slot.response.withLock { $0 } ?? HTTPResponse.text(status: 500, "the handler gave no response")
    }
}

/// Hands a response from the handler's task to the connection thread.
private final class ResponseSlot: Sendable {
    let response = Mutex<HTTPResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
}
