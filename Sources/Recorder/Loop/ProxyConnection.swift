import Glibc
import HTTP
import Transport

/// One client connection of a `ProxyLoop`: reads and parses its requests in order (an
/// `HTTPConnectionMachine`), forwards each through the loop's multi handle, and queues the
/// answer in its output. Lives on the loop's thread. What a stage needs (deadlines, the
/// exchange in progress, a refusal's drain) travels in its `Phase`; what lasts the
/// connection's life (the machine, the output, the budget charge) is stored beside it.
final class ProxyConnection {
    /// Where the connection is, with what that stage needs.
    enum Phase {
        /// Waiting for (the rest of) a request.
        case reading(Reading)
        /// A request is with the upstream; input waits. `inputClosed` once the peer closed its
        /// side: the connection ends after the requests already received are answered.
        case forwarding(Exchange, inputClosed: Bool)
        /// A refusal is queued; input is read and dropped until the peer closes or time runs out.
        case refusing(Drain)
        /// The last answer is queued; the connection closes once it is sent.
        case closing
        /// Closed; `abandoned` is the exchange that was in progress, which the completion of its
        /// cancelled transfer still records.
        case closed(abandoned: Exchange?)
    }

    /// The deadlines of a connection reading.
    struct Reading {
        /// When a request that has begun to arrive must be whole (408 after).
        var requestDeadline: ContinuousClock.Instant
        /// When the connection, idle, is closed.
        var idleDeadline: ContinuousClock.Instant
        /// The peer closed its side while a request was forwarded: no request comes after the
        /// ones already received.
        var inputClosed = false
    }

    /// A refusal being drained.
    struct Drain {
        /// Since when the connection had been idle when it was refused.
        let idleSince: ContinuousClock.Instant
        /// When the drain ends: the write timeout while the refusal waits, a second once it is out.
        var deadline: ContinuousClock.Instant
        /// The input read and dropped.
        var discarded = 0
        /// Whether the write side is shut down (the refusal is out).
        var shutDown = false
    }

    /// One forwarded request. An object, not a value: the phase is read at every event of the
    /// loop (flush, watch, deadlines, the budget), and a copy of the phase is then one reference
    /// counted, not every string and array of the request; the transfer and its clock are set
    /// in place. Lives on the loop's thread, like its connection.
    final class Exchange {
        let request: HTTPRequest
        let relay: ResponseRelay
        let begin: ContinuousClock.Instant
        var transfer: CurlMulti.Transfer?
        /// The transfer's activity when last looked at, and since when it has not changed.
        var activitySeen = 0
        var silentSince: ContinuousClock.Instant

        init(request: HTTPRequest, relay: ResponseRelay, begin: ContinuousClock.Instant) {
            self.request = request
            self.relay = relay
            self.begin = begin
            silentSince = begin
        }
    }

    let fd: Int32
    let peer: HTTPEndpoint
    unowned let loop: ProxyLoop
    var phase: Phase
    let output: HTTPOutput
    var isDirty = false
    /// The request bytes received and not yet answered, and the parse of the one arriving.
    var machine: HTTPConnectionMachine
    /// The request bytes this connection holds that are charged to the proxy's `BufferBudget`.
    var charged = 0
    /// What the socket is watched for.
    var interest = EventPoll.readable
    /// When output that waits must have moved (the peer reads nothing otherwise).
    var writeDeadline: ContinuousClock.Instant?
    /// The most output that waited at once, reported to the proxy when the connection closes.
    var peakOutput = 0

    /// Output above this pauses the upstream transfer; below `resumeMark` it goes on.
    static let pauseMark = 1 << 20
    static let resumeMark = 256 * 1024
    static let writeTimeout = Duration.seconds(30)

    init(fd: Int32, peer: HTTPEndpoint, loop: ProxyLoop) {
        self.fd = fd
        self.peer = peer
        self.loop = loop
        output = HTTPOutput(socket: fd)
        machine = HTTPConnectionMachine(
            limits: HTTPLimits(body: loop.proxy.configuration.requestBodyLimit), listener: loop.proxy.endpoint, peer: peer)
        let now = loop.clock.now
        phase = .reading(
            Reading(requestDeadline: now + loop.proxy.configuration.readTimeout, idleDeadline: now + loop.proxy.configuration.idleTimeout))
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
    var idleSince: ContinuousClock.Instant? {
        guard isIdle else { return nil }
        switch phase {
        case .reading(let reading): return reading.idleDeadline - loop.proxy.configuration.idleTimeout
        case .refusing(let drain): return drain.idleSince
        default: return nil
        }
    }

    var isReading: Bool {
        if case .reading = phase { return true }
        return false
    }

    var isForwarding: Bool {
        if case .forwarding = phase { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// The socket is ready for what the loop watches it for.
    func ready(_ events: UInt32) {
        if events & (EventPoll.failed | EventPoll.hungUp) != 0 && events & EventPoll.readable == 0 {
            guard isForwarding else { return loop.close(self) }
            output.fail()
            loop.markDirty(self)
            return
        }
        if events & EventPoll.writable != 0 { loop.markDirty(self) }
        guard events & (EventPoll.readable | EventPoll.hungUp) != 0 else { return }
        let scratch = loop.scratch
        switch phase {
        case .reading(var reading):
            let partial = machine.isPartial
            switch machine.receive({ NonBlockingSocket.receive(fd, into: &$0, scratch: scratch) }) {
            case .bytes:
                if !partial {
                    reading.requestDeadline = loop.clock.now + loop.proxy.configuration.readTimeout
                    phase = .reading(reading)
                }
                process()
            case .wouldBlock: break
            case .closed:
                // The peer is done sending; what is queued for it still goes out first.
                guard output.count > 0 else { return loop.close(self) }
                phase = .closing
                loop.markDirty(self)
            }
        case .refusing(var drain):
            switch NonBlockingSocket.discard(fd, scratch: scratch) {
            case .bytes(let count):
                drain.discarded += count
                phase = .refusing(drain)
                if drain.discarded > 8 * 1024 * 1024 { loop.close(self) }
            case .wouldBlock: break
            case .closed:
                // A peer that half-closed after its bad request still reads the refusal.
                guard output.count > 0 else { return loop.close(self) }
                phase = .closing
                loop.markDirty(self)
            }
        case .forwarding(let exchange, _):
            // Input stays watched while a request is forwarded (no epoll change per request);
            // what arrives waits in the buffer for its turn, in the room the buffer has (never
            // grown, which would copy it), within the framing limit and while the budget allows
            // reading ahead. Then it waits in the socket: the client waits, the proxy holds no more.
            let buffer = machine.buffer
            let room = buffer.capacity - buffer.count
            guard room > 0 else { return watch() }
            switch machine.receive({ NonBlockingSocket.receive(fd, into: &$0, scratch: scratch, maximum: room) }) {
            case .bytes:
                settleCharge()
                let budget = loop.proxy.budget
                let after = machine.buffer
                if !budget.allowsReadAhead || machine.unread > maximumBuffered || after.count == after.capacity { watch() }
            case .wouldBlock: break
            case .closed:
                phase = .forwarding(exchange, inputClosed: true)
                watch()
            }
        case .closing, .closed:
            break
        }
    }

    /// The most request bytes buffered ahead of the parser before the connection is refused
    /// (while reading) or stops reading (while forwarding).
    var maximumBuffered: Int { machine.maximumBuffered }

    /// Whether a request asks to switch to WebSocket. Other upgrades (such as `h2c`, which a
    /// client offers expecting HTTP/1.1 if it is ignored) are dropped like any hop-by-hop field.
    static func asksForWebSocket(_ request: HTTPRequest) -> Bool {
        guard request.headers.contains(where: { HTTPHeaders.sameName($0.name, "Upgrade") }) else { return false }
        return request.headers.tokens(for: "Upgrade").contains { $0.hasPrefix("websocket") }
    }
}
