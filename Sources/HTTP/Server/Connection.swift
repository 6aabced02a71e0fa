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

    func run() {
        defer { server.release(id, fd: fd) }
        // One receive buffer for the connection's life, not one allocation per read.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        let configuration = server.configuration
        var machine = HTTPConnectionMachine(limits: configuration.limits, listener: server.endpoint, peer: peer)
        let clock = ContinuousClock()
        var requestDeadline = clock.now + configuration.readTimeout
        var idleDeadline = clock.now + configuration.idleTimeout
        while true {
            switch machine.next() {
            case .request(let request):
                let keepAlive = serve(request)
                machine.answered(keepAlive: keepAlive)
                guard keepAlive else { return }
                requestDeadline = clock.now + configuration.readTimeout
                idleDeadline = clock.now + configuration.idleTimeout
                continue
            case .refuse(let error):
                return refuse(error)
            case .sendContinue:
                guard Socket.sendAll(fd, HTTPConnectionMachine.continueLine) else { return }
                continue
            case .close:
                return
            case .readMore:
                break
            }
            let partial = machine.isPartial
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
            guard machine.receive({ Socket.receive(fd, into: &$0, scratch: scratch) }) > 0 else { return }
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
