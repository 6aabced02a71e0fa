import HTTP
import Harness
import Synchronization

/// What a profile's client-lane mock says to one request: how it reads a request against what
/// the step expects, and what it answers. `MockService` owns the rest (the loopback server, the
/// expectations and what arrived, the counters the kill matrix waits on, a held connection).
protocol MockResponder: Sendable {
    /// One request a step expects, and its answer.
    associatedtype Expectation: Sendable
    /// One request as the mock saw it, for the judge.
    associatedtype Received: Sendable

    /// Reads `request` against what the step expects (nil: no request may come now): what the
    /// judge is told of it and how it is answered.
    func respond(to request: HTTPRequest, expecting: Expectation?) -> (Received, MockReply)
}

/// How the mock answers one request.
enum MockReply: Sendable {
    /// The golden answer (counted as answered).
    case golden(HTTPResponse)
    /// An error answer: nothing was expected, or the request is not the golden one.
    case refusal(HTTPResponse)
    /// Read the request, send nothing, close (drop-ack and transport-error).
    case drop
    /// Hold the connection until `release()` (the kill matrix kills the driver meanwhile), then
    /// close it without an answer.
    case hold
    /// Run `before` on the connection's own thread (the storage-fault matrix switches the
    /// driver's write failures on there), then send the golden answer.
    case goldenAfter(HTTPResponse, before: @Sendable () -> Void)
    /// Wait on the connection's own thread for the answer someone gives later (`accord explore
    /// --client` asks the reference server meanwhile), then send it, or close without one.
    case deferred(DeferredReply)
}

/// An answer the mock waits for on a connection's own thread, given by the task that read the
/// request: a response, or none (the connection closes). Not given within a minute, none.
final class DeferredReply: Sendable {
    private let value = Mutex<(given: Bool, response: HTTPResponse?)>((false, nil))
    private let given = Latch()

    /// Gives the answer (nil: close without one); only the first counts.
    func give(_ response: HTTPResponse?) {
        let first = value.withLock { value in
            guard !value.given else { return false }
            value = (true, response)
            return true
        }
        if first { given.set() }
    }

    /// Blocks the calling thread (a connection's, never a pool thread) until the answer is given.
    func wait() -> HTTPResponse? {
        given.block(timeout: .seconds(60))
        return value.withLock { $0.response }
    }
}

/// The client lane's loopback service for one case, of any profile: an HTTP server on 127.0.0.1
/// that answers each request with what the step expects, through the profile's `Responder`, and
/// keeps what it received for the judge. No connection is reused: a client's HTTP library must
/// not silently retry on a dropped one.
final class MockService<Responder: MockResponder>: Sendable {
    typealias Expectation = Responder.Expectation
    typealias Received = Responder.Received

    /// A counter the kill matrix waits on.
    enum Counter: Sendable {
        /// Requests that reached an expectation.
        case matched
        /// Golden answers handed to the server for writing.
        case answered
    }

    private struct Waiter {
        var counter: Counter
        var beyond: Int
        var latch: Latch
    }

    private struct State {
        var expected: [Expectation] = []
        var received: [Received] = []
        /// Requests that reached an expectation, since the mock started.
        var matched = 0
        /// Golden answers handed to the server for writing, since the mock started.
        var answered = 0
        /// Set when a held connection may be closed.
        var release = Latch()
        /// Tasks waiting for a counter to pass a value (the kill matrix's triggers).
        var waiters: [Waiter] = []

        func value(_ counter: Counter) -> Int { counter == .matched ? matched : answered }

        /// Counts one more on `counter` and takes the waiters that are now satisfied.
        mutating func bump(_ counter: Counter) -> [Latch] {
            switch counter {
            case .matched: matched += 1
            case .answered: answered += 1
            }
            let value = value(counter)
            let due = waiters.filter { $0.counter == counter && value > $0.beyond }
            waiters.removeAll { $0.counter == counter && value > $0.beyond }
            return due.map(\.latch)
        }
    }

    private let state = Mutex(State())
    private let server: HTTPServer
    /// What reads and answers each request.
    let responder: Responder
    /// The base URL the driver is given.
    let baseURL: String

    private init(responder: Responder, server: HTTPServer, baseURL: String) {
        self.responder = responder
        self.server = server
        self.baseURL = baseURL
    }

    /// Starts a mock on 127.0.0.1 at a free port; a request that arrives before it exists is
    /// answered 503 "starting". Answered on the connection's own thread: a mock never waits for a
    /// concurrency-pool thread, which the run's own cases may all be holding.
    /// - Throws: `RunError` (usage) when no port can be bound; `name` names the mock in it.
    static func start(_ name: String, responder: Responder) throws(RunError) -> MockService {
        let box = Mutex<MockService?>(nil)
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, gracePeriod: .milliseconds(100))
        let server: HTTPServer
        do {
            server = try HTTPServer.start(configuration) { request, stream in
                guard let mock = box.withLock({ $0 }) else {
                    _ = stream.respond(HTTPResponse.text(status: 503, "starting"))
                    return
                }
                _ = stream.respond(mock.answer(request))
            }
        } catch {
            throw RunError.usage("\(name) did not start: \(error)")
        }
        let mock = MockService(responder: responder, server: server, baseURL: "http://127.0.0.1:\(server.port)")
        box.withLock { $0 = mock }
        return mock
    }

    /// Stops the server.
    func stop() async { await server.stop() }

    /// Sets the requests the current step expects, in order (none: no request may come).
    func expect(_ expectations: [Expectation]) {
        state.withLock {
            $0.expected = expectations
            if $0.release.isSet { $0.release = Latch() }
        }
    }

    /// Sets the one request the current step expects (nil: no request may come).
    func expect(_ expectation: Expectation?) { expect(expectation.map { [$0] } ?? []) }

    /// Every request received since the last `take`, in order; the list is cleared, what is still
    /// expected stays.
    func take() -> [Received] {
        state.withLock { state in
            defer { state.received = [] }
            return state.received
        }
    }

    /// Ends a step: every request received since the last `take`, and the expected ones that
    /// never came; both lists are cleared.
    func settle() -> (received: [Received], missing: [Expectation]) {
        state.withLock { state in
            defer {
                state.received = []
                state.expected = []
            }
            return (state.received, state.expected)
        }
    }

    /// Requests that reached an expectation so far (a held one included); `take` does not reset it.
    var matchedCount: Int { state.withLock { $0.matched } }

    /// Golden answers handed to the server for writing so far.
    var answeredCount: Int { state.withLock { $0.answered } }

    /// Lets a held connection close (without an answer); later holds close at once too, until `expect` arms the next.
    func release() { state.withLock { $0.release }.set() }

    /// Waits until `counter` is past `count`, or the task is cancelled.
    func wait(until counter: Counter, passes count: Int) async {
        let latch = Latch()
        let passed = state.withLock { state -> Bool in
            if state.value(counter) > count { return true }
            state.waiters.append(Waiter(counter: counter, beyond: count, latch: latch))
            return false
        }
        guard !passed else { return }
        await latch.wait()
        state.withLock { $0.waiters.removeAll { $0.latch === latch } }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let expectation = state.withLock { state -> Expectation? in state.expected.isEmpty ? nil : state.expected.removeFirst() }
        let (received, reply) = responder.respond(to: request, expecting: expectation)
        let matched = state.withLock { state -> [Latch] in
            state.received.append(received)
            return expectation == nil ? [] : state.bump(.matched)
        }
        for waiter in matched { waiter.set() }
        switch reply {
        case .refusal(let response):
            return Self.closing(response)
        case .drop:
            return .drop
        case .hold:
            // A connection thread of the server, not a pool thread: blocking here holds only this connection.
            state.withLock { $0.release }.block(timeout: .seconds(30))
            return .drop
        case .goldenAfter(let response, let before):
            // A connection thread of the server, not a pool thread: `before` may block it briefly.
            before()
            return golden(response)
        case .golden(let response):
            return golden(response)
        case .deferred(let reply):
            // A connection thread of the server, not a pool thread: waiting here holds only this connection.
            guard let response = reply.wait() else { return .drop }
            return golden(response)
        }
    }

    /// The golden answer, counted as handed over.
    private func golden(_ response: HTTPResponse) -> HTTPResponse {
        for waiter in state.withLock({ $0.bump(.answered) }) { waiter.set() }
        return Self.closing(response)
    }

    private static func closing(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Connection", "close")
        return response
    }
}
