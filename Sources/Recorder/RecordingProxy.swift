import Capture
import Corpus
import Dispatch
import Foundation
import HTTP
import Synchronization
import Transport

/// A recording reverse proxy for the PostgREST surface: every request is forwarded to the
/// upstream over libcurl, the answer streams back as it arrives, and each exchange is appended,
/// redacted, to a JSON Lines recording as it completes. Connections are served by a few event
/// loops (`ProxyLoop`), each on a thread of its own with its own epoll and libcurl multi
/// handle; nothing blocks the concurrency pool.
public final class RecordingProxy: Sendable {
    /// The configuration it runs with.
    public let configuration: RecorderConfiguration
    /// The address actually bound.
    public let endpoint: HTTPEndpoint
    let writer: RecordingWriter
    let redactor: Redactor
    let started = ContinuousClock.now
    let counters = Mutex(RecorderStatistics())
    let queue: RecordingQueue
    /// The request bytes the connections of every loop hold, against `configuration.bufferBudget`.
    let budget: BufferBudget
    private let listener: Int32
    private let signals: [LoopSignal]
    private let open = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let peakOutput = Atomic<Int>(0)

    private init(
        configuration: RecorderConfiguration, endpoint: HTTPEndpoint, listener: Int32, writer: RecordingWriter, signals: [LoopSignal]
    ) {
        self.configuration = configuration
        self.endpoint = endpoint
        self.listener = listener
        self.writer = writer
        self.signals = signals
        redactor = Redactor(policy: configuration.redaction)
        budget = BufferBudget(limit: configuration.bufferBudget)
        queue = RecordingQueue(budget: max(64 * 1024 * 1024, configuration.recordedBodyLimit * 4))
    }

    /// Creates the recording, binds the listener and starts forwarding.
    /// - Parameter configuration: upstream, address, file and policy.
    /// - Returns: the running proxy.
    /// - Throws: `RecorderError` when the file, the upstream client or the listener cannot be set up.
    public static func start(_ configuration: RecorderConfiguration) throws(RecorderError) -> RecordingProxy {
        if let caFile = configuration.upstreamCAFile {
            guard configuration.upstreamHost.lowercased().hasPrefix("https://") else {
                throw RecorderError.trust("applies to an https:// upstream only")
            }
            if let problem = CertificateFile.problem(with: caFile) { throw RecorderError.trust(problem) }
        }
        let count = max(1, configuration.eventLoops)
        let signals = (0..<count).compactMap { _ in LoopSignal() }
        guard signals.count == count else { throw RecorderError.client("eventfd: \(String(cString: strerror(errno)))") }
        let header = RecordingHeader(
            protocolName: configuration.profile.rawValue, tool: configuration.tool, startedAt: Date().ISO8601Format(),
            upstream: configuration.upstreamHost,
            redaction: configuration.redaction.json)
        let writer: RecordingWriter
        do { writer = try RecordingWriter(path: configuration.output, header: header) } catch {
            throw RecorderError.recording(error.description)
        }
        let (listener, endpoint): (Int32, HTTPEndpoint)
        do { (listener, endpoint) = try NonBlockingSocket.listen(host: configuration.listen.host, port: configuration.listen.port) } catch {
            writer.close()
            throw RecorderError.listen("\(configuration.listen): \(error)")
        }
        let proxy = RecordingProxy(configuration: configuration, endpoint: endpoint, listener: listener, writer: writer, signals: signals)
        proxy.queue.start { capture in proxy.record(capture) }
        let made = Mutex(0)
        let ready = DispatchSemaphore(value: 0)
        for (index, signal) in signals.enumerated() {
            let thread = Thread {
                let loop = ProxyLoop(proxy: proxy, index: index, listener: listener, signal: signal)
                if loop != nil { made.withLock { $0 += 1 } }
                ready.signal()
                guard let loop else {
                    proxy.closeUnserved(signal)
                    return signal.markEnded()
                }
                loop.run()
            }
            thread.name = "accord-record-loop-\(index)"
            thread.start()
        }
        for _ in signals { ready.wait() }
        guard made.withLock({ $0 }) == count else {
            proxy.stopNow()
            throw RecorderError.client("could not set up an event loop (epoll or libcurl multi handle)")
        }
        return proxy
    }

    /// Counts so far: exchanges recorded, distinct clients, open connections, errors.
    public var statistics: RecorderStatistics {
        var snapshot = counters.withLock { $0 }
        snapshot.openConnections = open.load(ordering: .relaxed)
        snapshot.recorded = writer.written
        return snapshot
    }

    /// The first failure to write the recording, if any (the proxy keeps forwarding).
    public var recordingFailure: RecordingWriteError? { writer.failure }

    /// Whether `stop()` was called.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Counts a new client connection in; false when the connection cap is reached.
    func admit() -> Bool {
        let now = open.add(1, ordering: .relaxed).newValue
        guard now > configuration.maxConnections else { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    /// The most answer bytes that waited for one slow client at once, over the connections
    /// closed so far (the upstream transfer pauses above `ProxyConnection.pauseMark`).
    var largestWaitingOutput: Int { peakOutput.load(ordering: .relaxed) }

    /// Keeps the largest waiting output seen.
    func notePeakOutput(_ bytes: Int) {
        var current = peakOutput.load(ordering: .relaxed)
        while bytes > current {
            let (exchanged, original) = peakOutput.compareExchange(expected: current, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Which loop serves the next accepted connection: the loops take them in turn, whichever
    /// accepted it, so that clients that connect at once (a load generator's connections, a
    /// pool) are spread over every loop rather than all served by the first one awake.
    /// - Parameters:
    ///   - fd: the accepted connection.
    ///   - peer: the client's address.
    ///   - index: the accepting loop.
    /// - Returns: true when another loop took the connection; false when the acceptor keeps it.
    func handOn(_ fd: Int32, peer: HTTPEndpoint, acceptedBy index: Int) -> Bool {
        let turn = accepted.add(1, ordering: .relaxed).oldValue % signals.count
        guard turn != index else { return false }
        return signals[turn].hand(fd, peer: peer)
    }

    /// Stops a loop taking hand-offs and closes those it never took (the loop is ending, or was
    /// never made).
    func closeUnserved(_ signal: LoopSignal) {
        for handed in signal.closeInbox() {
            Glibc.close(handed.fd)
            if case .admitted = handed.admission { release() }
        }
    }

    /// The loop (other than `excluded`) whose oldest idle connection has been idle longest, as
    /// of the loops' last sweeps, and since when (nanoseconds from the proxy's start); nil when
    /// none has one.
    func loopWithOldestIdle(excluding excluded: Int) -> (index: Int, since: Int)? {
        var best: (index: Int, since: Int)?
        for (index, signal) in signals.enumerated() where index != excluded {
            let since = signal.oldestIdleSince
            if since != Int.max, since < best?.since ?? Int.max { best = (index, since) }
        }
        return best
    }

    /// Hands a connection that waits for room to another loop, its `hops`-th hand-off.
    /// - Returns: false when that loop no longer takes connections.
    func handForRoom(_ fd: Int32, peer: HTTPEndpoint, to index: Int, hops: Int) -> Bool {
        signals[index].hand(fd, peer: peer, admission: .needsRoom(hops: hops))
    }

    /// The number of event loops.
    var loopCount: Int { signals.count }

    /// Nanoseconds from the proxy's start to `instant`.
    func nanoseconds(at instant: ContinuousClock.Instant) -> Int {
        let (seconds, attoseconds) = (instant - started).components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    /// The client connections each loop has served, in loop order.
    var connectionsServedPerLoop: [Int] { signals.map(\.connectionsServed) }

    /// Counts a closed client connection out.
    func release() { open.subtract(1, ordering: .relaxed) }

    /// Stops listening, lets exchanges in flight finish within the grace period, then records
    /// and writes what is queued, syncs and closes the recording.
    public func stop() async {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        beginStop()
        let end = ContinuousClock.now + configuration.gracePeriod + .seconds(2)
        // Every loop ends within its grace period; the wait for each shares one deadline.
        for signal in signals {
            guard await signal.ended.wait(until: end) else { break }
        }
        close(listener)
        queue.drain()
        writer.close()
    }

    /// Starts stopping without waiting: the loops stop accepting and close idle connections,
    /// and the exchanges in progress get the grace period. `stop()` then waits and closes.
    func beginStop() {
        stopping.store(true, ordering: .releasing)
        for signal in signals { signal.wake() }
    }

    private func stopNow() {
        finished.store(true, ordering: .releasing)
        beginStop()
        for signal in signals { signal.ended.wait() }
        close(listener)
        queue.drain()
        writer.close()
    }
}

/// What a recording proxy has done so far.
public struct RecorderStatistics: Sendable, Hashable {
    /// Exchanges answered (recorded or being recorded).
    public var exchanges = 0
    /// Exchanges written to the recording.
    public var recorded = 0
    /// Distinct clients seen (client id, else user, else peer address).
    public var clients = 0
    /// Client connections open now.
    public var openConnections = 0
    /// Upstream failures, clients gone mid-answer, and recording failures.
    public var errors = 0
    var clientIDs: Set<String> = []

    /// One line for a status display.
    public var line: String {
        "\(exchanges) exchanges, \(clients) clients, \(openConnections) connections, \(errors) errors"
    }
}

extension RecordingProxy {
    /// The methods the proxy forwards, as `OPTIONS *` lists them: those of the PostgREST surface.
    /// (Any token method is forwarded; CONNECT has no origin-form target and is refused.)
    static let forwardedMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// The proxy's own answer to a request it does not forward, or nil: `OPTIONS *` asks about
    /// the proxy itself, and as a URL on the upstream it would be a bad one (RFC 9110 §9.3.7).
    /// Such an answer is not an exchange with the upstream and is not recorded.
    /// - Parameter request: the client's request.
    /// - Returns: the answer, or nil to forward the request.
    static func localAnswer(to request: HTTPRequest) -> HTTPResponse? {
        request.asksForServerOptions ? .serverOptions(allowing: forwardedMethods) : nil
    }
}
