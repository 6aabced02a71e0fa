import Corpus
import Foundation
import HTTP
import Harness
import JSON
import KizunaWire
import Synchronization

extension KizunaSync {
    /// The client lane's server: a loopback PostgREST surface that answers each RPC the case
    /// expects with its golden response (or a fault), and keeps what it received for the judge.
    final class Mock: Sendable {
        /// How the next request is answered.
        enum Answer: Sendable {
            /// The golden response, with its HTTP status.
            case reply(status: Int, body: JSONValue)
            /// Read the request, send nothing, close (drop-ack and transport-error).
            case drop
            /// Read the request and hold the connection until `release()` (the kill matrix kills the
            /// driver meanwhile), then close it without an answer.
            case hold
            /// Read the request, run `before` on the connection's own thread (the storage-fault matrix
            /// switches the driver's write failures on there), then answer the golden response.
            case replyAfter(status: Int, body: JSONValue, before: @Sendable () -> Void)
        }

        /// What the current step expects: one request of an RPC, matching a golden body (or any
        /// well-formed one when nil), and how to answer it.
        struct Expectation: Sendable {
            var rpc: RPCKind
            var golden: JSONValue?
            var answer: Answer
        }

        /// One request as the mock saw it.
        struct Received: Sendable {
            var summary: String
            var mismatch: RequestMatch.Mismatch?
            /// Whether it arrived while nothing was expected.
            var unexpected: Bool
            /// The RPC its path names, if any.
            var rpc: RPCKind?
            /// The body, when it is JSON.
            var body: JSONValue?
        }

        private struct State {
            var expectation: Expectation?
            var received: [Received] = []
            /// Requests that matched an expectation, since the mock started.
            var matched = 0
            /// Answers handed to the server for writing, since the mock started.
            var answered = 0
            /// Set when a held connection may be closed.
            var release = Latch()
            /// Tasks waiting for a counter to pass a value (the kill matrix's triggers).
            var waiters: [Waiter] = []

            /// The value of a counter.
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

        private let state = Mutex(State())
        private let match: RequestMatch
        /// The credentials and client the driver must send.
        var expected: RequestMatch.Expected { match.expected }
        private let server: HTTPServer

        /// The base URL the driver is given.
        let baseURL: String

        private init(match: RequestMatch, server: HTTPServer, baseURL: String) {
            self.match = match
            self.server = server
            self.baseURL = baseURL
        }

        /// Starts a mock on 127.0.0.1 at a free port.
        /// - Parameter expected: the identity and keys the client must send.
        /// - Throws: `RunError` when no port can be bound.
        static func start(expecting expected: RequestMatch.Expected) async throws(RunError) -> KizunaSync.Mock {
            try LaneMockServer.start("the client lane's mock server", answer: { $0.answer($1) }) { server, baseURL in
                KizunaSync.Mock(match: RequestMatch(expected: expected), server: server, baseURL: baseURL)
            }
        }

        /// Stops the server.
        func stop() async { await server.stop() }

        /// Sets what the next request must be (nil: no request may come).
        func expect(_ expectation: Expectation?) {
            state.withLock {
                $0.expectation = expectation
                if $0.release.isSet { $0.release = Latch() }
            }
        }

        /// Every request received since the last `take`, in order; the list is cleared.
        func take() -> [Received] {
            state.withLock { state in
                defer { state.received = [] }
                return state.received
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
            let summary = "\(request.method) \(request.target) " + String(decoding: request.body.prefix(2048), as: UTF8.self)
            let rpc = RequestMatch.rpc(of: request.path)
            let body = try? JSONParser.parse(request.body)
            let expectation = state.withLock { state -> Expectation? in
                defer { state.expectation = nil }
                return state.expectation
            }
            guard let expectation else {
                state.withLock { $0.received.append(Received(summary: summary, mismatch: nil, unexpected: true, rpc: rpc, body: body)) }
                return Self.postgrestError(status: 503, "accord: no request was expected at this step")
            }
            let mismatch = match.mismatch(request, rpc: expectation.rpc, golden: expectation.golden)
            let matched = state.withLock {
                $0.received.append(Received(summary: summary, mismatch: mismatch, unexpected: false, rpc: rpc, body: body))
                return $0.bump(.matched)
            }
            for waiter in matched { waiter.set() }
            if mismatch != nil { return Self.postgrestError(status: 500, "accord: the request does not match the golden request") }
            switch expectation.answer {
            case .drop:
                return .drop
            case .hold:
                // A connection thread of the server, not a pool thread: blocking here holds only this connection.
                state.withLock { $0.release }.block(timeout: .seconds(30))
                return .drop
            case .replyAfter(let status, let body, let before):
                // A connection thread of the server, not a pool thread: `before` may block it briefly.
                before()
                return reply(status: status, body: body)
            case .reply(let status, let body):
                return reply(status: status, body: body)
            }
        }

        /// The golden answer, counted as handed over.
        private func reply(status: Int, body: JSONValue) -> HTTPResponse {
            var response = HTTPResponse(
                status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(CanonicalJSON.compact(body).utf8))
            // No connection reuse: a client's HTTP library must not silently retry on a dropped one.
            response.headers.set("Connection", "close")
            for waiter in state.withLock({ $0.bump(.answered) }) { waiter.set() }
            return response
        }

        private static func postgrestError(status: Int, _ message: String) -> HTTPResponse {
            let body = PostgRESTSurface.errorBody(code: "XX000", message: message)
            var response = HTTPResponse(
                status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(CanonicalJSON.compact(body).utf8))
            response.headers.set("Connection", "close")
            return response
        }
    }
}
