import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server on POSIX sockets: one thread accepts, one thread per connection reads,
/// parses and answers requests in order (keep-alive and pipelining), up to a connection cap.
/// Its threads keep it alive: call `stop()` to release the port and the threads.
public final class HTTPServer: Sendable {
    /// One open connection: its socket and whether a request is in progress on it. The flag
    /// is atomic so that a request's start and end take no lock: `beginRequest` sets it before
    /// reading `stopping`, `stop()` sets `stopping` before reading it (both sequentially
    /// consistent), so either the request sees the stop or the stop sees the request.
    final class Slot: Sendable {
        let fd: Int32
        let busy = Atomic<Bool>(false)
        /// Whether a request is arriving or being answered, for making room at the cap: since
        /// when (nanoseconds from the server's start, zero or more) the connection has been
        /// idle, `Self.active` while a request is in progress, `Self.evicted` once closed to
        /// make room. One atomic word, so that the connection's thread and the accepting thread
        /// agree on who gets it: one of `markActive` and `evict` wins.
        private let idleSince: Atomic<Int>
        private static let active = -1
        private static let evicted = -2

        init(fd: Int32, idleSince: Int) {
            self.fd = fd
            self.idleSince = Atomic(idleSince)
        }

        /// Since when the connection has been idle, or nil while a request is in progress.
        var idleSinceNanoseconds: Int? {
            let value = idleSince.load(ordering: .acquiring)
            return value >= 0 ? value : nil
        }

        /// Marks a request arriving; false when the connection was closed to make room.
        func markActive() -> Bool {
            while true {
                let current = idleSince.load(ordering: .acquiring)
                if current == Self.evicted { return false }
                if current == Self.active { return true }
                if idleSince.compareExchange(expected: current, desired: Self.active, ordering: .acquiringAndReleasing).exchanged {
                    return true
                }
            }
        }

        /// Marks the connection idle from `now` (kept if already idle); false once evicted.
        func markIdle(_ now: Int) -> Bool {
            let (exchanged, original) = idleSince.compareExchange(expected: Self.active, desired: now, ordering: .acquiringAndReleasing)
            return exchanged || original != Self.evicted
        }

        /// Claims an idle connection for closing; false when it is no longer idle since `since`.
        func evict(idleSince since: Int) -> Bool {
            idleSince.compareExchange(expected: since, desired: Self.evicted, ordering: .acquiringAndReleasing).exchanged
        }
    }

    struct State {
        var accepting = true
        var nextID = 0
        var connections: [Int: Slot] = [:]
    }

    /// The address the server listens on, with the port actually bound.
    public let endpoint: HTTPEndpoint
    let configuration: HTTPServerConfiguration
    let responder: Responder
    private let listener: Int32
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    private let started = ContinuousClock.now
    /// Happens once the server is stopping, no longer accepting, and has no connection left.
    private let drained = StopEvent()

    /// How requests are answered: a whole response from an async handler, or a stream written
    /// from the connection's thread.
    enum Responder: Sendable {
        case whole(HTTPHandler)
        case streaming(HTTPStreamingHandler)
    }

    private init(configuration: HTTPServerConfiguration, responder: Responder, listener: Int32, endpoint: HTTPEndpoint) {
        self.configuration = configuration
        self.responder = responder
        self.listener = listener
        self.endpoint = endpoint
    }

    /// Binds, listens and starts serving.
    /// - Parameters:
    ///   - configuration: address, limits and timeouts (127.0.0.1 and an ephemeral port by default).
    ///   - handler: answers each request.
    /// - Returns: the running server.
    /// - Throws: `HTTPError` when the address cannot be bound.
    public static func start(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: @escaping HTTPHandler
    ) throws(HTTPError) -> HTTPServer {
        try start(configuration, responder: .whole(handler))
    }

    /// Binds, listens and starts serving with a streaming handler, called on each connection's
    /// own thread (it may block there) with a writer for the response head and body.
    /// - Parameters:
    ///   - configuration: address, limits and timeouts.
    ///   - streaming: answers each request through the `HTTPResponseStream` it is given.
    /// - Returns: the running server.
    /// - Throws: `HTTPError` when the address cannot be bound.
    public static func start(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), streaming: @escaping HTTPStreamingHandler
    ) throws(HTTPError) -> HTTPServer {
        try start(configuration, responder: .streaming(streaming))
    }

    private static func start(_ configuration: HTTPServerConfiguration, responder: Responder) throws(HTTPError) -> HTTPServer {
        let (fd, endpoint) = try Socket.listen(host: configuration.host, port: configuration.port)
        let server = HTTPServer(configuration: configuration, responder: responder, listener: fd, endpoint: endpoint)
        let thread = Thread { server.acceptLoop() }
        thread.name = "accord-http-accept"
        thread.start()
        return server
    }

    /// The bound port.
    public var port: UInt16 { endpoint.port }

    /// The number of open connections.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Stops serving: closes the listener, closes idle connections at once, lets requests in
    /// progress finish within the grace period, then cuts whatever is left.
    public func stop() async {
        state.withLock { state in
            guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
            _ = shutdown(listener, Int32(SHUT_RDWR))
            for slot in state.connections.values where !slot.busy.load(ordering: .sequentiallyConsistent) {
                _ = shutdown(slot.fd, Int32(SHUT_RDWR))
            }
        }
        let clock = ContinuousClock()
        guard !(await drained.wait(until: clock.now + configuration.gracePeriod)) else { return }
        state.withLock { state in
            for slot in state.connections.values { _ = shutdown(slot.fd, Int32(SHUT_RDWR)) }
        }
        _ = await drained.wait(until: clock.now + .seconds(1))
    }

    /// Signals `drained` once nothing is left to wait for. Called under the state lock as the
    /// accept loop ends and as each connection is released.
    private func noteDrained(_ state: State) {
        if !state.accepting && state.connections.isEmpty { drained.signal() }
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func acceptLoop() {
        while !isStopping {
            guard Socket.waitReadable(listener, milliseconds: 250) == .readable else { continue }
            guard let (fd, peer) = Socket.accept(listener) else {
                // Out of descriptors: no event says when one is freed, so wait a moment and try again.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }  // polling-allowed: EMFILE backoff, no event for a freed fd
                continue
            }
            Socket.configure(fd, writeTimeout: configuration.writeTimeout)
            let slot = Slot(fd: fd, idleSince: nanosecondsNow())
            let id: Int? = state.withLock { state in
                guard !isStopping else { return nil }
                if state.connections.count >= configuration.maxConnections, !Self.evictOldestIdle(&state) { return nil }
                state.nextID += 1
                state.connections[state.nextID] = slot
                return state.nextID
            }
            guard let id else {
                let refusal = configuration.errorResponse(
                    .unavailable("\(configuration.maxConnections) connections already open, each with a request in progress"))
                _ = Socket.sendAll(fd, refusal.serialized(keepAlive: false, date: HTTPDate.now()))
                close(fd)
                continue
            }
            let connection = Connection(id: id, slot: slot, peer: peer, server: self)
            let thread = Thread { connection.run() }
            thread.name = "accord-http-connection"
            thread.start()
        }
        state.withLock { state in
            close(listener)
            state.accepting = false
            noteDrained(state)
        }
    }

    /// At the cap, the connection idle longest gives way to a new one: it is shut down (its
    /// thread sees the close and releases it) and no longer counted. False when every
    /// connection has a request in progress. Called under the state lock.
    private static func evictOldestIdle(_ state: inout State) -> Bool {
        while true {
            var oldest: (id: Int, slot: Slot, since: Int)?
            for (id, slot) in state.connections {
                guard let since = slot.idleSinceNanoseconds else { continue }
                if since < oldest?.since ?? Int.max { oldest = (id, slot, since) }
            }
            guard let oldest else { return false }
            // Lost to a request arriving on it just now: look again.
            guard oldest.slot.evict(idleSince: oldest.since) else { continue }
            _ = shutdown(oldest.slot.fd, Int32(SHUT_RDWR))
            state.connections[oldest.id] = nil
            return true
        }
    }

    /// Nanoseconds since the server started.
    func nanosecondsNow() -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    /// Marks a connection busy with a request; false when the server is stopping.
    func beginRequest(_ slot: Slot) -> Bool {
        slot.busy.store(true, ordering: .sequentiallyConsistent)
        guard !isStopping else {
            slot.busy.store(false, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// Marks a connection idle again; returns whether the server is stopping.
    func endRequest(_ slot: Slot) -> Bool {
        slot.busy.store(false, ordering: .sequentiallyConsistent)
        return isStopping
    }

    /// Forgets a connection and closes its socket (under the lock, so `stop()` never shuts down a reused descriptor).
    func release(_ id: Int, fd: Int32) {
        state.withLock { state in
            state.connections[id] = nil
            close(fd)
            noteDrained(state)
        }
    }
}
