import Glibc
import HTTP
import Transport

/// One event loop of the recording proxy, on a thread of its own: it accepts client
/// connections from the shared listener, reads and parses their requests, forwards them
/// through its libcurl multi handle, queues the answers and sends them as the sockets take
/// them. One `epoll_wait` serves every connection and upstream socket the loop has ready, so
/// a busy loop handles many requests per wake-up. Nothing here is touched by another thread;
/// the proxy reaches the loop only through its `LoopSignal`.
final class ProxyLoop {
    let proxy: RecordingProxy
    let poll: EventPoll
    /// The loop's place among the proxy's loops.
    private let index: Int
    private let listener: Int32
    private let signal: LoopSignal
    private(set) var multi: CurlMulti
    private let watcher: CurlWatcher
    private var connections: [Int32: ProxyConnection] = [:]
    private var upstreamSockets = UpstreamSockets()
    private var dirty: [ProxyConnection] = []
    private var listening = true
    private var listenerPaused = false
    private var graceEnd: ContinuousClock.Instant?
    /// Receive space shared by the loop's connections (one receive at a time).
    let scratch: UnsafeMutableRawBufferPointer
    let clock = ContinuousClock()
    static let sweepInterval = Duration.milliseconds(100)

    init?(proxy: RecordingProxy, index: Int, listener: Int32, signal: LoopSignal) {
        guard let poll = EventPoll() else { return nil }
        let watcher = CurlWatcher()
        // Each loop keeps its share of idle upstream connections, not the whole cap's worth.
        let idle = max(8, proxy.configuration.maxConnections / max(1, proxy.configuration.eventLoops))
        guard let multi = CurlMulti(maximumIdle: idle, caFile: proxy.configuration.upstreamCAFile, watch: { watcher.loop?.watch($0, $1) })
        else {
            return nil
        }
        self.proxy = proxy
        self.poll = poll
        self.index = index
        self.listener = listener
        self.signal = signal
        self.multi = multi
        self.watcher = watcher
        scratch = .allocate(byteCount: 64 * 1024, alignment: 16)
        watcher.loop = self
    }

    deinit { scratch.deallocate() }

    /// Runs until the proxy stops and the loop's connections are closed.
    func run() {
        defer {
            // libcurl's callbacks after this (the multi handle's cleanup) find no loop.
            watcher.loop = nil
            signal.markEnded()
        }
        poll.add(listener, EventPoll.readable | EventPoll.exclusive)
        poll.add(signal.wakeFD, EventPoll.readable)
        var nextSweep = clock.now + Self.sweepInterval
        while true {
            var wait = nextSweep - clock.now
            if let deadline = multi.deadline { wait = min(wait, deadline - clock.now) }
            if !dirty.isEmpty { wait = .zero }
            poll.wait(milliseconds: Self.milliseconds(wait)) { fd, events in dispatch(fd, events) }
            if let deadline = multi.deadline, deadline <= clock.now { multi.timerExpired() }
            flushDirty()
            let now = clock.now
            if now >= nextSweep {
                nextSweep = now + Self.sweepInterval
                for connection in Array(connections.values) { connection.checkDeadlines(now) }
                publishOldestIdle()
                if listenerPaused && listening {
                    listenerPaused = false
                    poll.add(listener, EventPoll.readable | EventPoll.exclusive)
                }
                flushDirty()
            }
            if proxy.isStopping && stopStep(now) { break }
        }
        for connection in Array(connections.values) { close(connection) }
        poll.remove(listener)
        // Handed on after the last look: never served, so closed and counted out here.
        proxy.closeUnserved(signal)
    }

    /// Whole milliseconds to wait, rounded up so that a deadline under a millisecond away is
    /// waited for rather than spun on.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private func dispatch(_ fd: Int32, _ events: UInt32) {
        if fd == listener {
            acceptWaiting()
        } else if fd == signal.wakeFD {
            signal.consume()
            for handed in signal.takeHanded() {
                switch handed.admission {
                case .admitted: serve(handed.fd, peer: handed.peer)
                case .needsRoom(let hops): makeRoom(for: handed.fd, peer: handed.peer, hops: hops)
                }
            }
        } else if upstreamSockets.isWatched(fd) {
            multi.socketReady(
                fd, readable: events & (EventPoll.readable | EventPoll.hungUp) != 0, writable: events & EventPoll.writable != 0,
                failed: events & EventPoll.failed != 0)
        } else if upstreamSockets.isParked(fd) {
            upstreamSockets.unpark(fd, from: poll)
        } else if let connection = connections[fd] {
            connection.ready(events)
        }
    }

    /// Accepts the connections waiting (a bounded number per turn, so the other loops get some).
    private func acceptWaiting() {
        var accepted = 0
        while listening, accepted < 64 {
            guard let (fd, peer) = NonBlockingSocket.accept(listener) else {
                // Out of descriptors: the listener stays readable, so stop watching it until
                // the next sweep instead of spinning on it.
                if errno == EMFILE || errno == ENFILE {
                    listenerPaused = true
                    poll.remove(listener)
                }
                return
            }
            accepted += 1
            upstreamSockets.forget(fd)
            guard proxy.admit() else {
                makeRoom(for: fd, peer: peer, hops: 0)
                continue
            }
            if proxy.handOn(fd, peer: peer, acceptedBy: index) { continue }
            serve(fd, peer: peer)
        }
    }

    /// At the connection cap, idle connections give way to new ones: the oldest idle
    /// connection of any loop is closed to make room (the new one goes to its loop, so the
    /// loops stay even). Only when every connection has a request in progress is the new one
    /// answered 503. A connection handed here for room (`hops` > 0) takes this loop's oldest
    /// idle connection if it has one (the published one may have had a request since), else
    /// goes on to the next loop that published one, at most once per loop.
    private func makeRoom(for fd: Int32, peer: HTTPEndpoint, hops: Int) {
        let own = oldestIdleConnection()
        let ownSince = own?.idleSince.map(proxy.nanoseconds(at:)) ?? Int.max
        if hops == 0 || own == nil, hops < proxy.loopCount - 1, let other = proxy.loopWithOldestIdle(excluding: index),
            other.since < ownSince, proxy.handForRoom(fd, peer: peer, to: other.index, hops: hops + 1)
        {
            return
        }
        admit(fd, peer: peer, closing: own)
    }

    /// Serves a connection that waited for room in the place of `idle`, closed for it; without
    /// an idle connection (or when another client took the room first), answers it 503.
    private func admit(_ fd: Int32, peer: HTTPEndpoint, closing idle: ProxyConnection?) {
        if let idle {
            close(idle)
            publishOldestIdle()
        }
        guard idle != nil, proxy.admit() else {
            let limit = proxy.configuration.maxConnections
            let refusal = HTTPResponse.plain(.unavailable("\(limit) connections already open, each with a request in progress"))
            let bytes = refusal.serialized(keepAlive: false, date: HTTPDate.now())
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Glibc.close(fd)
            return
        }
        serve(fd, peer: peer)
    }

    /// The loop's connection that has been idle longest, if any is idle.
    private func oldestIdleConnection() -> ProxyConnection? {
        var oldest: (connection: ProxyConnection, since: ContinuousClock.Instant)?
        for connection in connections.values {
            guard let since = connection.idleSince else { continue }
            if oldest.map({ since < $0.since }) ?? true { oldest = (connection, since) }
        }
        return oldest?.connection
    }

    /// Tells the other loops since when this loop's oldest idle connection has been idle.
    private func publishOldestIdle() {
        signal.publishOldestIdle(oldestIdleConnection()?.idleSince.map(proxy.nanoseconds(at:)) ?? Int.max)
    }

    /// Takes on a client connection, accepted here or handed over by another loop.
    private func serve(_ fd: Int32, peer: HTTPEndpoint) {
        // The number may have been one of this loop's upstream sockets, closed and reused.
        upstreamSockets.forget(fd)
        let connection = ProxyConnection(fd: fd, peer: peer, loop: self)
        connections[fd] = connection
        poll.add(fd, EventPoll.readable)
        signal.countServed()
        // A loop that has published no idle connection publishes this one at once (it is idle
        // until its first request), so a client arriving at the cap before the next sweep can
        // find room here. One atomic load on the accept path; the sweep keeps it current after.
        if signal.oldestIdleSince == Int.max, let since = connection.idleSince {
            signal.publishOldestIdle(proxy.nanoseconds(at: since))
        }
    }

    /// libcurl wants one of its sockets watched differently.
    private func watch(_ fd: Int32, _ interest: CurlMulti.Interest) {
        upstreamSockets.apply(fd, interest, to: poll)
    }

    /// Asks for the connection's output to be sent at the end of this turn.
    func markDirty(_ connection: ProxyConnection) {
        guard !connection.isDirty else { return }
        connection.isDirty = true
        dirty.append(connection)
    }

    private func flushDirty() {
        while !dirty.isEmpty {
            let batch = dirty
            dirty.removeAll(keepingCapacity: true)
            for connection in batch { connection.flush() }
        }
    }

    /// Closes a connection: its transfer, if any, is abandoned (and recorded as such).
    func close(_ connection: ProxyConnection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        connection.closeDown()
        poll.remove(connection.fd)
        Glibc.close(connection.fd)
        proxy.release()
    }

    /// One step of stopping; true when the loop may end. Stops accepting, closes idle
    /// connections, lets exchanges in progress finish within the grace period, then cuts them.
    private func stopStep(_ now: ContinuousClock.Instant) -> Bool {
        if graceEnd == nil {
            graceEnd = now + proxy.configuration.gracePeriod
            listening = false
            poll.remove(listener)
        }
        for connection in Array(connections.values) where connection.isIdle { close(connection) }
        return connections.isEmpty || now >= (graceEnd ?? now)
    }
}

/// Lets libcurl's socket callback reach the loop, which is made after the multi handle. A
/// strong reference (a cycle through the multi handle, broken when the loop's run ends), not a
/// weak one: a weakly referenced object keeps its counts in a side table, and every connection
/// reaches its loop through an `unowned` reference, retained and released on the slow path
/// several times per request.
private final class CurlWatcher {
    var loop: ProxyLoop?
}
