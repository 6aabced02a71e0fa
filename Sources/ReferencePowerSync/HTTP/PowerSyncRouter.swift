import Corpus
import Foundation
import HTTP
import KizunaWire
import PowerSyncWire

/// `accord serve --profile powersync`: the embedded service's three endpoints over the HTTP
/// module's server, on each connection's own thread (docs/powersync.md, "Serving it"):
/// `POST /sync/stream` answering NDJSON for as long as the client keeps it open,
/// `GET /write-checkpoint2.json` and `POST /sync/checkpoint-request`. A request carries
/// `Authorization: Bearer <JWT>` (HS256); its `sub` claim names the user, as PowerSync's
/// service takes `user_id` from `sub`. With `fixtures`, loopback listeners also answer
/// `POST /accord/powersync/reset|configure|source|replicate`, which the server lane drives.
public struct PowerSyncRouter: Sendable {
    /// The service.
    public let service: PowerSyncService
    /// The HS256 key tokens are verified with.
    public let key: JWTKey
    /// Whether the fixture endpoint is open.
    public let fixtures: Bool

    /// Makes a router.
    /// - Parameters:
    ///   - service: the service.
    ///   - key: the JWT key.
    ///   - fixtures: whether to open the fixture endpoint (loopback listeners only).
    public init(service: PowerSyncService, key: JWTKey, fixtures: Bool) {
        self.service = service
        self.key = key
        self.fixtures = fixtures
    }

    /// Starts serving.
    /// - Parameter configuration: address and limits.
    /// - Returns: the running server.
    /// - Throws: `HTTPError` when the address cannot be bound.
    public func serve(_ configuration: HTTPServerConfiguration) throws(HTTPError) -> HTTPServer {
        let router = self
        return try HTTPServer.start(configuration) { request, stream in router.handle(request, stream) }
    }

    /// Answers one request on the connection's thread.
    func handle(_ request: HTTPRequest, _ stream: HTTPResponseStream) {
        let service = self.service
        if request.path.hasPrefix(PowerSyncSurface.fixturePrefix), fixtures, request.listener.isLoopback {
            _ = stream.respond(fixture(String(request.path.dropFirst(PowerSyncSurface.fixturePrefix.count)), request))
            return
        }
        let user: String
        let expiresIn: Int?
        do throws(JWTError) {
            let authorization = request.headers["Authorization"] ?? ""
            guard authorization.hasPrefix("Bearer ") else { throw .malformed("no Authorization: Bearer token") }
            let claims = try key.verify(String(authorization.dropFirst("Bearer ".count)))
            guard let subject = claims.subject, !subject.isEmpty else { throw .malformed("no sub claim") }
            user = subject
            expiresIn = claims.expiresAt.flatMap { Int(exactly: ($0 - Date().timeIntervalSince1970).rounded(.down)) }
        } catch {
            _ = stream.respond(Self.json(401, Self.error("PSYNC_S2101", "\(error)")))
            return
        }
        switch (request.method, request.path) {
        case ("POST", "/sync/stream"):
            let cursor: StreamCursor
            do throws(PowerSyncWireError) {
                cursor = StreamCursor(userID: user, request: try SyncStreamRequest(json: try Self.body(request)))
            } catch {
                _ = stream.respond(Self.json(400, Self.error("PSYNC_S2001", "\(error.pointer): \(error.detail)")))
                return
            }
            syncStream(cursor, expiresIn: expiresIn, stream)
        case ("GET", "/write-checkpoint2.json"):
            let answer = Blocking.run { () async -> Result<JSONValue, PowerSyncServiceError> in
                do throws(PowerSyncServiceError) { return .success(try await service.writeCheckpoint(userID: user).json) } catch {
                    return .failure(error)
                }
            }
            _ = stream.respond(Self.answer(answer))
        case ("POST", "/sync/checkpoint-request"):
            let checkpointRequest: CheckpointRequest
            do throws(PowerSyncWireError) { checkpointRequest = try CheckpointRequest(json: try Self.body(request)) } catch {
                _ = stream.respond(Self.json(400, Self.error("PSYNC_S2001", "\(error.pointer): \(error.detail)")))
                return
            }
            let answer = Blocking.run { () async -> Result<JSONValue, PowerSyncServiceError> in
                do throws(PowerSyncServiceError) {
                    return .success(try await service.checkpointRequest(checkpointRequest, userID: user).json)
                } catch {
                    return .failure(error)
                }
            }
            _ = stream.respond(Self.answer(answer))
        default:
            _ = stream.respond(Self.json(404, Self.error("PSYNC_S2002", "no route \(request.method) \(request.path)")))
        }
    }

    /// Writes the stream: a `token_expires_in` when the token expires, then every answer of the
    /// service as it comes, each line flushed, until the client hangs up or the server stops.
    private func syncStream(_ start: StreamCursor, expiresIn: Int?, _ stream: HTTPResponseStream) {
        let service = self.service
        let headers: HTTPHeaders = ["Content-Type": "application/x-ndjson", "Cache-Control": "no-store"]
        guard stream.sendHead(status: 200, headers: headers, contentLength: nil) else { return }
        if let expiresIn, !Self.send(.tokenExpiresIn(max(0, expiresIn)), stream) { return }
        var cursor = start
        while true {
            let step = Blocking.run { [cursor] () async -> (Result<[SyncLine], PowerSyncServiceError>, StreamCursor, Bool) in
                var next = cursor
                do throws(PowerSyncServiceError) {
                    let lines = try await service.answer(&next)
                    if !lines.isEmpty { return (.success(lines), next, true) }
                    return (.success([]), next, await service.changed())
                } catch {
                    return (.failure(error), next, false)
                }
            }
            cursor = step.1
            guard case .success(let lines) = step.0 else {
                stream.abort()
                return
            }
            for line in lines where !Self.send(line, stream) { return }
            if !step.2 { break }
        }
        _ = stream.finish()
    }

    private static func send(_ line: SyncLine, _ stream: HTTPResponseStream) -> Bool {
        stream.send(Array((CanonicalJSON.compact(line.json) + "\n").utf8)) && stream.flush()
    }

    static func body(_ request: HTTPRequest) throws(PowerSyncWireError) -> JSONValue {
        do { return try JSONParser.parse(request.body) } catch {
            throw PowerSyncWireError(.malformedRequest, at: .root, "the body is not JSON: \(error)")
        }
    }

    static func answer(_ result: Result<JSONValue, PowerSyncServiceError>) -> HTTPResponse {
        switch result {
        case .success(let body): json(200, body)
        case .failure(let error): json(500, Self.error("PSYNC_S2003", "\(error)"))
        }
    }

    static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(CanonicalJSON.compact(body).utf8))
    }

    static func error(_ code: String, _ description: String) -> JSONValue {
        .object(
            JSONObject(pairs: [("error", .object(JSONObject(pairs: [("code", .string(code)), ("description", .string(description))])))]))
    }
}
