import Capture
import Corpus
import Foundation
import HTTP
import Harness
import JSON
import PowerSyncWire

extension PowerSync {
    /// The PowerSync client lane's service: a loopback HTTP server that answers each request the
    /// current step expects with its golden answer (the sync stream's NDJSON lines, a checkpoint
    /// request's id, an upload's status).
    typealias Mock = MockService<Responder>

    /// How the PowerSync mock reads and answers one request: the next request the step expects, by
    /// method, path, credential and what its body means to PowerSync's service.
    struct Responder: MockResponder {
        /// One request the step expects, and its answer.
        struct Expectation: Sendable {
            /// The method: POST, or GET for `/write-checkpoint2.json`.
            var method = "POST"
            /// The path, e.g. "/sync/stream".
            var path: String
            /// The golden request body (for a GET, its query as an object).
            var golden: JSONValue
            /// The answer's status.
            var status: Int
            /// The answer's body: NDJSON lines or one JSON value.
            var body: [UInt8]
            /// The answer's content type.
            var contentType: String
            /// A client's reconcile at connect replayed after a kill: the restarted client may hold a
            /// greater counter than the golden run had, so any id at or above the golden one is taken,
            /// and answered the greater of it and the golden answer, as the service keeps the greatest.
            var atLeast = false
            /// The credential the request must carry, when not the service's token (an app backend's).
            var token: String?
        }

        /// One request as the mock saw it.
        struct Received: Sendable {
            /// "POST /path body…", for findings.
            var summary: String
            /// Why it is not the golden request, if it is not.
            var mismatch: String?
        }

        /// The bearer token every request must carry.
        let token: String

        func respond(to request: HTTPRequest, expecting next: Expectation?) -> (Received, MockReply) {
            let summary = "\(request.method) \(request.target) " + String(decoding: request.body.prefix(2048), as: UTF8.self)
            guard let next else {
                return (
                    Received(summary: summary, mismatch: "no request was expected at this step"),
                    .refusal(HTTPResponse.text(status: 503, "accord: no request was expected at this step"))
                )
            }
            if let mismatch = mismatch(request, next) {
                return (Received(summary: summary, mismatch: mismatch), .refusal(HTTPResponse.text(status: 500, "accord: \(mismatch)")))
            }
            return (
                Received(summary: summary, mismatch: nil),
                .golden(HTTPResponse(status: next.status, headers: ["Content-Type": next.contentType], body: answerBody(request, next)))
            )
        }

        /// The golden answer, or for an `atLeast` reconcile the greater of the sent id and the golden one.
        func answerBody(_ request: HTTPRequest, _ expected: Expectation) -> [UInt8] {
            guard expected.atLeast, let body = try? JSONParser.parse(request.body), let sent = try? CheckpointRequest(json: body),
                let json = try? JSONParser.parse(expected.body), let golden = try? CheckpointRequestAnswer(backend: json),
                sent.id > golden.id
            else { return expected.body }
            let answer = CheckpointRequestAnswer(id: sent.id)
            return Array(CanonicalJSON.compact(expected.token == nil ? answer.json : answer.backendJSON).utf8)
        }

        func mismatch(_ request: HTTPRequest, _ expected: Expectation) -> String? {
            if request.method != expected.method || request.path != expected.path {
                return "expected \(expected.method) \(expected.path), found \(request.method) \(request.path)"
            }
            // Token (the SDKs' scheme) and Bearer alike, as PowerSync's service takes them.
            let token = expected.token ?? self.token
            guard let authorization = request.headers["Authorization"],
                PowerSync.Surface.credential(authorization: authorization) == token[...]
            else {
                return expected.token == nil
                    ? "the Authorization header is not Token or Bearer <the token given at attach>"
                    : "the Authorization header is not Bearer <the checkpoint backend's token given at attach>"
            }
            let body: JSONValue
            if expected.method == "GET" {
                body = .object(RecordedExchange.queryParameters(of: (request.query ?? "")[...]))
            } else {
                guard let parsed = try? JSONParser.parse(request.body) else { return "the body is not JSON" }
                body = parsed
            }
            if expected.atLeast, let sent = try? CheckpointRequest(json: body), let golden = try? CheckpointRequest(json: expected.golden) {
                if sent.clientID == golden.clientID && sent.id >= golden.id { return nil }
                return
                    "the reconcile after a restart sent id \(sent.id) for client \(sent.clientID), expected at least \(golden.id) for \(golden.clientID)"
            }
            let actual = Self.meaning(body, path: expected.path)
            let golden = Self.meaning(expected.golden, path: expected.path)
            guard let at = actual.firstDifference(from: golden) else { return nil }
            return "the body differs from the golden request at \(at.readable): expected "
                + "\(CanonicalJSON.compact(golden.value(at: at) ?? .null)), found \(CanonicalJSON.compact(actual.value(at: at) ?? .null))"
        }

        /// What a request means to PowerSync's service, compared instead of its bytes: a stream
        /// request's bucket positions (in name order) and client id, whatever else an SDK sends
        /// (`binary_data`, `parameters`, `app_metadata`, `streams`: the service allows any member);
        /// a checkpoint request's id (a string or a number alike) and client id; a write checkpoint's
        /// query, whole. A body that does not decode, and any other request, is compared whole.
        static func meaning(_ body: JSONValue, path: String) -> JSONValue {
            if path == PowerSync.Surface.checkpointBackendPath, let request = try? CheckpointRequest(json: body) {
                return ["checkpoint_request_id": .string(request.id.description), "client_id": .string(request.clientID)]
            }
            switch PowerSync.Surface.route(atPath: path) {
            case .syncStream:
                guard let request = try? SyncStreamRequest(json: body) else { return body }
                let buckets = request.buckets.sorted { $0.name < $1.name }.map { position -> JSONValue in
                    ["name": .string(position.name), "after": .string(position.after.description)]
                }
                return ["buckets": .array(buckets), "client_id": request.clientID.map(JSONValue.string) ?? .null]
            case .checkpointRequest:
                guard let request = try? CheckpointRequest(json: body) else { return body }
                return ["checkpoint_request_id": .string(request.id.description), "client_id": .string(request.clientID)]
            case .writeCheckpoint, nil:
                return body
            }
        }
    }
}

extension MockService where Responder == PowerSync.Responder {
    /// Starts a mock on 127.0.0.1 at a free port.
    /// - Parameter token: the bearer token every request must carry.
    /// - Throws: `RunError` when no port can be bound.
    static func start(token: String) throws(RunError) -> MockService {
        try start("the PowerSync client lane's mock service", responder: PowerSync.Responder(token: token))
    }
}
