import Glibc
import HTTP
import Transport

/// One client connection of a `ProxyLoop`: reads and parses its requests in order, forwards
/// each through the loop's multi handle, and queues the answer in its output. Lives on the
/// loop's thread.
final class ProxyConnection {
    enum Phase {
        /// Waiting for (the rest of) a request.
        case reading
        /// A request is with the upstream; input waits.
        case forwarding
        /// A refusal is queued; input is read and dropped until the peer closes or time runs out.
        case refusing
        /// The last answer is queued; the connection closes once it is sent.
        case closing
        /// Closed.
        case closed
    }

    /// One forwarded request.
    struct Exchange {
        let request: HTTPRequest
        let relay: ResponseRelay
        let begin: ContinuousClock.Instant
        var transfer: CurlMulti.Transfer?
        /// The transfer's activity when last looked at, and since when it has not changed.
        var activitySeen = 0
        var silentSince: ContinuousClock.Instant
    }

    let fd: Int32
    let peer: HTTPEndpoint
    unowned let loop: ProxyLoop
    private(set) var phase = Phase.reading
    let output: HTTPOutput
    var isDirty = false
    /// The request bytes received and not yet answered, and the parse of the one arriving.
    private var machine: HTTPConnectionMachine
    /// The request bytes this connection holds that are charged to the proxy's `BufferBudget`.
    private var charged = 0
    private var exchange: Exchange?
    private var shutDown = false
    /// The peer closed its side while a request was forwarded; the connection ends after the
    /// requests already received are answered.
    private var inputClosed = false
    private var interest = EventPoll.readable
    private var requestDeadline: ContinuousClock.Instant
    private var idleDeadline: ContinuousClock.Instant
    private var writeDeadline: ContinuousClock.Instant?
    private var refuseDeadline: ContinuousClock.Instant
    private var discarded = 0
    /// The most output that waited at once, reported to the proxy when the connection closes.
    private var peakOutput = 0

    /// Output above this pauses the upstream transfer; below `resumeMark` it goes on.
    static let pauseMark = 1 << 20
    static let resumeMark = 256 * 1024
    static let idleTimeout = Duration.seconds(60)
    static let writeTimeout = Duration.seconds(30)

    init(fd: Int32, peer: HTTPEndpoint, loop: ProxyLoop) {
        self.fd = fd
        self.peer = peer
        self.loop = loop
        output = HTTPOutput(socket: fd)
        machine = HTTPConnectionMachine(
            limits: HTTPLimits(body: loop.proxy.configuration.requestBodyLimit), listener: loop.proxy.endpoint, peer: peer)
        let now = loop.clock.now
        requestDeadline = now + loop.proxy.configuration.readTimeout
        idleDeadline = now + Self.idleTimeout
        refuseDeadline = now
    }

    /// Whether nothing is in progress: no request arriving, none forwarded, nothing to send.
    var isIdle: Bool {
        switch phase {
        case .reading: !machine.isPartial && output.count == 0
        case .refusing, .closed: true
        case .forwarding, .closing: false
        }
    }

    /// Since when the connection has been idle (its last answer out, or its accepting), or nil
    /// while a request is in progress: the oldest idle connection makes room at the cap.
    var idleSince: ContinuousClock.Instant? { isIdle ? idleDeadline - Self.idleTimeout : nil }

    /// The socket is ready for what the loop watches it for.
    func ready(_ events: UInt32) {
        if events & (EventPoll.failed | EventPoll.hungUp) != 0 && events & EventPoll.readable == 0 {
            guard phase == .forwarding else { return loop.close(self) }
            output.fail()
            loop.markDirty(self)
            return
        }
        if events & EventPoll.writable != 0 { loop.markDirty(self) }
        guard events & (EventPoll.readable | EventPoll.hungUp) != 0 else { return }
        switch phase {
        case .reading:
            let partial = machine.isPartial
            let scratch = loop.scratch
            switch machine.receive({ NonBlockingSocket.receive(fd, into: &$0, scratch: scratch) }) {
            case .bytes:
                if !partial { requestDeadline = loop.clock.now + loop.proxy.configuration.readTimeout }
                process()
            case .wouldBlock: break
            case .closed:
                // The peer is done sending; what is queued for it still goes out first.
                guard output.count > 0 else { return loop.close(self) }
                inputClosed = true
                phase = .closing
                loop.markDirty(self)
            }
        case .refusing:
            switch NonBlockingSocket.discard(fd, scratch: loop.scratch) {
            case .bytes(let count):
                discarded += count
                if discarded > 8 * 1024 * 1024 { loop.close(self) }
            case .wouldBlock: break
            case .closed:
                // A peer that half-closed after its bad request still reads the refusal.
                guard output.count > 0 else { return loop.close(self) }
                phase = .closing
                loop.markDirty(self)
            }
        case .forwarding:
            // Input stays watched while a request is forwarded (no epoll change per request);
            // what arrives waits in the buffer for its turn, in the room the buffer has (never
            // grown, which would copy it), within the framing limit and while the budget allows
            // reading ahead. Then it waits in the socket: the client waits, the proxy holds no more.
            let buffer = machine.buffer
            let room = buffer.capacity - buffer.count
            guard room > 0 else { return watch() }
            let scratch = loop.scratch
            switch machine.receive({ NonBlockingSocket.receive(fd, into: &$0, scratch: scratch, maximum: room) }) {
            case .bytes:
                settleCharge()
                let budget = loop.proxy.budget
                let after = machine.buffer
                if !budget.allowsReadAhead || machine.unread > maximumBuffered || after.count == after.capacity { watch() }
            case .wouldBlock: break
            case .closed:
                inputClosed = true
                watch()
            }
        case .closing, .closed:
            break
        }
    }

    /// The most request bytes buffered ahead of the parser before the connection is refused
    /// (while reading) or stops reading (while forwarding).
    private var maximumBuffered: Int { machine.maximumBuffered }

    /// Whether a request asks to switch to WebSocket. Other upgrades (such as `h2c`, which a
    /// client offers expecting HTTP/1.1 if it is ignored) are dropped like any hop-by-hop field.
    static func asksForWebSocket(_ request: HTTPRequest) -> Bool {
        guard request.headers.contains(where: { HTTPHeaders.sameName($0.name, "Upgrade") }) else { return false }
        return request.headers.tokens(for: "Upgrade").contains { $0.hasPrefix("websocket") }
    }

    /// Parses what has arrived: forwards a whole request, refuses a bad one, or waits for more.
    private func process() {
        while phase == .reading {
            switch machine.next() {
            case .request(let request):
                if Self.asksForWebSocket(request) {
                    // Forwarded without its hop-by-hop `Upgrade`, it would reach the upstream as a
                    // plain GET and fail there with a puzzling answer: say what happened instead.
                    refuse(
                        .notImplemented(
                            "accord record does not relay WebSocket upgrades (e.g. Supabase Realtime); connect that client to the upstream directly"
                        ))
                    return
                }
                if let answer = RecordingProxy.localAnswer(to: request) {
                    answerLocally(answer, to: request)
                    continue
                }
                // A request read ahead whole (never charged at its head) is forwarded only if its
                // copies fit the budget.
                let budget = loop.proxy.budget
                if !settleCharge() || budget.held + Self.forwardedCopies * request.body.count > budget.limit {
                    refuse(
                        .unavailable("the proxy's connections hold requests over its \(budget.limit)-byte buffer budget (--buffer-budget)"))
                    return
                }
                begin(request)
            case .refuse(let error):
                refuse(error)
            case .sendContinue:
                HTTPConnectionMachine.continueLine.withUnsafeBytes { output.append($0) }
                loop.markDirty(self)
            case .readMore where machine.isPartial:
                if !settleCharge(arriving: true) {
                    let limit = loop.proxy.budget.limit
                    refuse(.unavailable("the proxy's connections hold requests over its \(limit)-byte buffer budget (--buffer-budget)"))
                }
                return
            case .readMore, .close:
                _ = settleCharge()
                return
            }
        }
        _ = settleCharge()
    }

    /// The copies of a forwarded body alive at once: the request's and libcurl's
    /// (`CURLOPT_COPYPOSTFIELDS`).
    static var forwardedCopies: Int { 2 }

    /// Brings the connection's charge to the request bytes it holds or is about to: its unparsed
    /// input (a buffer over 1 MiB by its capacity; for a request whose head declared its length,
    /// the whole request from the head on, twice, as it will cost once forwarded, so a body is
    /// refused before it arrives, not after),
    /// a chunked body being decoded and the body of the request being forwarded, with libcurl's
    /// copy of it.
    /// - Returns: whether the proxy's connections together are still within the budget.
    /// - Parameter arriving: whether a request is arriving: the total must then stay within
    ///   `BufferBudget.arrivingLimit`, not the whole limit (a body still arriving when others
    ///   have taken the total past it is refused, and its bytes let go).
    @discardableResult
    private func settleCharge(arriving: Bool = false) -> Bool {
        // A closed connection holds nothing: a transfer cancelled as it closes must not charge
        // again what `closeDown()` refunded.
        guard phase != .closed else { return true }
        // A large buffer's pages stay in use up to its capacity once touched (a compaction
        // moves bytes down, it does not give pages back): it counts whole.
        let buffer = machine.buffer
        let buffered = buffer.capacity > 1 << 20 ? buffer.capacity : machine.unread
        let framed = max(buffered, Self.forwardedCopies * (machine.expectedLength ?? 0))
        let holding = framed + machine.heldBodyBytes + Self.forwardedCopies * (exchange?.request.body.count ?? 0)
        let budget = loop.proxy.budget
        defer { charged = holding }
        guard holding > charged else {
            if holding < charged { budget.refund(charged - holding) }
            return holding == 0 || budget.held <= (arriving ? budget.arrivingLimit : budget.limit)
        }
        return budget.charge(holding - charged, within: arriving ? budget.arrivingLimit : budget.limit)
    }

    /// Queues the proxy's own answer (`OPTIONS *`); nothing is forwarded or recorded.
    private func answerLocally(_ answer: HTTPResponse, to request: HTTPRequest) {
        let keepAlive = request.keepAlive && !loop.proxy.isStopping
        answer.serialized(version: request.version, keepAlive: keepAlive, date: HTTPDate.now()).withUnsafeBytes { output.append($0) }
        machine.answered(keepAlive: keepAlive)
        if !keepAlive { phase = .closing }
        loop.markDirty(self)
    }

    /// Forwards a request to the upstream; its answer is queued as it arrives.
    private func begin(_ request: HTTPRequest) {
        let proxy = loop.proxy
        guard !proxy.isStopping else {
            // Answered, so the client knows it was not forwarded; not recorded, like any refusal.
            let refusal = HTTPResponse.plain(.unavailable("accord record is stopping; the request was not forwarded"))
            refusal.serialized(version: request.version, keepAlive: false, date: HTTPDate.now()).withUnsafeBytes { output.append($0) }
            machine.answered(keepAlive: false)
            phase = .closing
            loop.markDirty(self)
            return
        }
        phase = .forwarding
        let stream = HTTPResponseStream(
            output: output, version: request.version, omitBody: request.method == "HEAD", keepAlive: request.keepAlive && !proxy.isStopping)
        let relay = ResponseRelay(stream: stream, output: output, limit: proxy.configuration.recordedBodyLimit)
        relay.queued = { [unowned self] in sendNow() }
        relay.firstBodySent = { Self.yieldToReader() }
        let now = loop.clock.now
        exchange = Exchange(request: request, relay: relay, begin: now, transfer: nil, silentSince: now)
        let transfer = loop.multi.start(proxy.upstreamRequest(request), sink: relay) { [unowned self] outcome in
            complete(outcome)
        }
        guard let transfer else {
            complete(.notStarted("libcurl refused the transfer"))
            return
        }
        exchange?.transfer = transfer
        loop.markDirty(self)
    }

    /// The upstream transfer ended: the exchange is recorded, the answer completed, and the
    /// connection goes on to its next request or closes.
    private func complete(_ outcome: StreamingOutcome) {
        guard let exchange else { return }
        self.exchange = nil
        let stream = exchange.relay.stream
        loop.proxy.conclude(outcome, request: exchange.request, relay: exchange.relay, begin: exchange.begin)
        // The body stays charged while it is recorded.
        settleCharge()
        guard phase == .forwarding else { return }
        loop.markDirty(self)
        let keepAlive = stream.keepsAlive && !output.failed && !loop.proxy.isStopping
        machine.answered(keepAlive: keepAlive)
        guard keepAlive else {
            phase = .closing
            return
        }
        phase = .reading
        let now = loop.clock.now
        requestDeadline = now + loop.proxy.configuration.readTimeout
        idleDeadline = now + Self.idleTimeout
        process()
        if phase == .reading && inputClosed { phase = .closing }
    }

    /// Queues the refusal of a bad request; the connection then drains its input and closes.
    private func refuse(_ error: HTTPError) {
        let response = HTTPResponse.plain(error).serialized(keepAlive: false, date: HTTPDate.now())
        response.withUnsafeBytes { output.append($0) }
        machine.end()
        settleCharge()
        phase = .refusing
        // The drain's second starts once the refusal is out (`flush`); until then the write
        // timeout governs, so an answer still queued ahead of it is not cut.
        refuseDeadline = loop.clock.now + Self.writeTimeout
        loop.markDirty(self)
    }

    /// Sends queued answer bytes at once, from inside libcurl's callbacks: one socket action can
    /// read a fast upstream for a long while, and the first streamed byte should not wait for
    /// it. The rest (failure, watching for room) is left to `flush()` at the end of the turn.
    private func sendNow() {
        if output.count > 0, phase == .forwarding {
            let sent = output.send(to: fd)
            if sent > 0 { writeDeadline = loop.clock.now + Self.writeTimeout }
        }
        loop.markDirty(self)
    }

    /// Gives up the rest of this thread's time slice once an answer's first body bytes are out.
    /// A client on the same machine is sometimes woken onto this CPU by that send, and would
    /// otherwise wait there until the loop had relayed a slice's worth of the rest (up to a few
    /// milliseconds for a large stream) before it reads the first bytes. One syscall per
    /// answer; when nothing else waits for the CPU it returns at once.
    static func yieldToReader() { _ = sched_yield() }

    /// Sends what the socket takes, then pauses or resumes the transfer by what still waits,
    /// and watches the socket for what comes next.
    func flush() {
        isDirty = false
        guard phase != .closed else { return }
        peakOutput = max(peakOutput, output.count)
        if output.count > 0 {
            let sent = output.send(to: fd)
            if sent > 0 || writeDeadline == nil { writeDeadline = loop.clock.now + Self.writeTimeout }
        }
        if output.count == 0 && writeDeadline != nil {
            writeDeadline = nil
            // Idle time counts from when the last answer was out.
            if phase == .reading { idleDeadline = loop.clock.now + Self.idleTimeout }
        }
        if output.failed {
            // The client is gone: the transfer stops (recorded as such) and the connection closes.
            if phase == .forwarding, let transfer = exchange?.transfer { loop.multi.cancel(transfer) }
            return loop.close(self)
        }
        switch phase {
        case .closing where output.count == 0:
            return loop.close(self)
        case .refusing where output.count == 0 && !shutDown:
            shutDown = true
            refuseDeadline = loop.clock.now + .seconds(1)
            _ = shutdown(fd, Int32(SHUT_WR))
        case .forwarding:
            // The transfer paused itself when too much waited (`ResponseRelay.pauseRequested`).
            if let exchange, let transfer = exchange.transfer, exchange.relay.paused, output.count < Self.resumeMark {
                exchange.relay.paused = false
                watch()
                return loop.multi.pause(transfer, false)
            }
        default:
            break
        }
        watch()
    }

    /// Watches the socket for input while a request may come, and for room while output waits.
    private func watch() {
        guard phase != .closed else { return }
        var mask: UInt32 = 0
        switch phase {
        case .reading, .refusing: mask |= EventPoll.readable
        case .forwarding
        where !inputClosed && machine.buffer.count < machine.buffer.capacity && machine.unread <= maximumBuffered
            && loop.proxy.budget.allowsReadAhead:
            mask |= EventPoll.readable
        default: break
        }
        if output.count > 0 { mask |= EventPoll.writable }
        guard mask != interest else { return }
        interest = mask
        loop.poll.modify(fd, mask)
    }

    /// Times out a request that arrives too slowly (408), an idle connection, a refusal's
    /// drain, and a peer that reads nothing.
    func checkDeadlines(_ now: ContinuousClock.Instant) {
        if let writeDeadline, now >= writeDeadline { return loop.close(self) }
        switch phase {
        case .reading where machine.isPartial && now >= requestDeadline:
            refuse(.timeout("request not received within \(loop.proxy.configuration.readTimeout)"))
        case .reading where !machine.isPartial && output.count == 0 && now >= idleDeadline:
            loop.close(self)
        case .refusing where now >= refuseDeadline:
            loop.close(self)
        case .forwarding:
            checkSilence(now)
        default:
            break
        }
    }

    /// Ends the exchange when its transfer moved nothing for `upstreamTimeout`: no request byte
    /// sent, no header or body byte received. Time the transfer spent paused for a slow client
    /// does not count.
    private func checkSilence(_ now: ContinuousClock.Instant) {
        guard let limit = loop.proxy.configuration.upstreamTimeout, var current = exchange, let transfer = current.transfer,
            let activity = loop.multi.activity(transfer)
        else { return }
        if current.relay.paused || activity != current.activitySeen {
            current.activitySeen = activity
            current.silentSince = now
            exchange = current
            return
        }
        guard now - current.silentSince >= limit else { return }
        let waited = current.relay.status == 0 ? "its answer" : "the rest of its answer"
        loop.multi.expire(transfer, "the upstream sent nothing for \(limit) while the exchange waited for \(waited)")
    }

    /// Marks the connection closed and abandons its transfer (called by the loop as it closes it).
    func closeDown() {
        let forwarding = phase == .forwarding
        phase = .closed
        loop.proxy.notePeakOutput(peakOutput)
        output.fail()
        if forwarding, let transfer = exchange?.transfer { loop.multi.cancel(transfer) }
        // After the cancel, whose completion runs now: nothing it does is charged any more.
        loop.proxy.budget.refund(charged)
        charged = 0
    }
}
