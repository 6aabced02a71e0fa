import Corpus
import Foundation
import HTTP
import Harness
import JSON
import KizunaWire

extension KizunaSync {
    /// The client lane's KizunaSync mock: a loopback PostgREST surface that answers each RPC the
    /// case expects with its golden response (or a fault).
    typealias Mock = MockService<Responder>

    /// How the PostgREST mock reads and answers one request: the RPC the step expects, matched
    /// against its golden body (`RequestMatch`: the identity, keys and client the driver must send).
    struct Responder: MockResponder {
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
            /// Read the request and wait for the answer given to `reply` (`MockReply.deferred`).
            case deferred(DeferredReply)
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

        /// The identity and keys the client must send.
        let match: RequestMatch

        func respond(to request: HTTPRequest, expecting expectation: Expectation?) -> (Received, MockReply) {
            let summary = "\(request.method) \(request.target) " + String(decoding: request.body.prefix(2048), as: UTF8.self)
            let rpc = RequestMatch.rpc(of: request.path)
            let body = try? JSONParser.parse(request.body)
            guard let expectation else {
                return (
                    Received(summary: summary, mismatch: nil, unexpected: true, rpc: rpc, body: body),
                    .refusal(Self.postgrestError(status: 503, "accord: no request was expected at this step"))
                )
            }
            let mismatch = match.mismatch(request, rpc: expectation.rpc, golden: expectation.golden)
            let received = Received(summary: summary, mismatch: mismatch, unexpected: false, rpc: rpc, body: body)
            if mismatch != nil {
                return (received, .refusal(Self.postgrestError(status: 500, "accord: the request does not match the golden request")))
            }
            switch expectation.answer {
            case .drop: return (received, .drop)
            case .hold: return (received, .hold)
            case .replyAfter(let status, let body, let before):
                return (received, .goldenAfter(Self.reply(status: status, body: body), before: before))
            case .reply(let status, let body): return (received, .golden(Self.reply(status: status, body: body)))
            case .deferred(let reply): return (received, .deferred(reply))
            }
        }

        /// The golden answer.
        static func reply(status: Int, body: JSONValue) -> HTTPResponse {
            HTTPResponse(
                status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(CanonicalJSON.compact(body).utf8))
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

extension MockService where Responder == KizunaSync.Responder {
    /// How the next request is answered.
    typealias Answer = KizunaSync.Responder.Answer

    /// Starts a mock on 127.0.0.1 at a free port.
    /// - Parameter expected: the identity and keys the client must send.
    /// - Throws: `RunError` when no port can be bound.
    static func start(expecting expected: RequestMatch.Expected) async throws(RunError) -> MockService {
        try start("the client lane's mock server", responder: KizunaSync.Responder(match: RequestMatch(expected: expected)))
    }

    /// The credentials and client the driver must send.
    var expected: RequestMatch.Expected { responder.match.expected }
}
