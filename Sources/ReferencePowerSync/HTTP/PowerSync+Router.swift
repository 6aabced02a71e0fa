import Foundation
import HTTP
import JSON
import PowerSyncWire

extension PowerSync {
    /// `accord serve --profile powersync`: the embedded service's three endpoints over the HTTP
    /// module's server, on each connection's own thread (docs/powersync.md, "Serving it"):
    /// `POST /sync/stream` answering NDJSON for as long as the client keeps it open,
    /// `GET /write-checkpoint2.json` and `POST /sync/checkpoint-request`. A request carries
    /// `Authorization: Token <JWT>` or `Bearer <JWT>` (HS256); its `sub` claim names the user, as PowerSync's
    /// service takes `user_id` from `sub`. With `fixtures`, loopback listeners also answer
    /// `POST /accord/powersync/reset|configure|source|replicate`, which the server lane drives.
    /// `POST /accord/checkpoint-request` is Accord's stand-in for an app's custom checkpoint backend
    /// (the seed's `CustomCheckpointRequestConnector`): it keeps the greatest id per user and client,
    /// as the service's own route does, and answers it bare (`checkpointBackend`).
    public struct Router: Sendable {
        /// The service.
        public let service: PowerSync.Service
        /// The HS256 key tokens are verified with.
        public let key: JWTKey
        /// Whether the fixture endpoint is open.
        public let fixtures: Bool

        /// Makes a router.
        /// - Parameters:
        ///   - service: the service.
        ///   - key: the JWT key.
        ///   - fixtures: whether to open the fixture endpoint (loopback listeners only).
        public init(service: PowerSync.Service, key: JWTKey, fixtures: Bool) {
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
            if request.path.hasPrefix(PowerSync.Surface.fixturePrefix), fixtures, request.listener.isLoopback {
                if let refusal = FixtureAccess.refusal(request) {
                    _ = stream.respond(Self.json(403, Self.error("ACF04", refusal)))
                } else {
                    _ = stream.respond(fixture(String(request.path.dropFirst(PowerSync.Surface.fixturePrefix.count)), request))
                }
                return
            }
            if request.path == PowerSync.Surface.checkpointBackendPath {
                _ = stream.respond(checkpointBackend(request))
                return
            }
            // In PowerSync's order (lib-services router/endpoint.ts, executeEndpoint): an unknown
            // route is 404 before anything else (route-register.ts, setNotFoundHandler), then the
            // body or query is validated (400), then the token checked (401).
            let route = PowerSync.Surface.Route.allCases.first { $0.method == request.method && $0.path == request.path }
            guard let route else {
                _ = stream.respond(Self.routeNotFound(request))
                return
            }
            // A JSON body that does not parse is refused by Fastify's parser before the route runs
            // (a GET's body is not parsed).
            let body: JSONValue
            switch route.method == "POST" ? Self.body(request) : .params(.object(JSONObject())) {
            case .params(let parsed): body = parsed
            case .refused(let refusal):
                _ = stream.respond(refusal)
                return
            }
            let input: Input
            do throws(PowerSync.ShapeError) {
                switch route {
                case .syncStream: input = .stream(try SyncStreamRequest(json: body))
                case .checkpointRequest: input = .checkpointRequest(try CheckpointRequest(json: body))
                case .writeCheckpoint: input = .writeCheckpoint(try WriteCheckpointRequest(json: try Self.queryObject(request.query)))
                }
            } catch {
                _ = stream.respond(Self.validationFailed(["\(error.pointer): \(error.detail)"]))
                return
            }
            let user: String
            let expiresAt: Double?
            switch caller(request) {
            case .success((let subject, let expiry)?):
                user = subject
                expiresAt = expiry
            case .success(nil):
                _ = stream.respond(Self.failure(401, "AuthorizationError", "PSYNC_S2106", "Authentication required"))
                return
            case .failure(let error):
                _ = stream.respond(Self.failure(401, "AuthorizationError", "PSYNC_S2101", "\(error)"))
                return
            }
            switch input {
            case .stream(let body):
                syncStream(StreamCursor(userID: user, request: body), expiresAt: expiresAt, stream)
            case .writeCheckpoint(let query):
                let answer = Blocking.run { () async -> Result<JSONValue, PowerSync.ServiceError> in
                    do throws(PowerSync.ServiceError) {
                        return .success(try await service.writeCheckpoint(userID: user, clientID: query.clientID).json)
                    } catch {
                        return .failure(error)
                    }
                }
                _ = stream.respond(Self.answer(answer))
            case .checkpointRequest(let checkpointRequest):
                _ = stream.respond(Self.answer(held(checkpointRequest, userID: user).map(\.json)))
            }
        }

        /// The user a request's credential names and when it expires; nil when it carries none the
        /// service would read.
        private func caller(_ request: HTTPRequest) -> Result<(user: String, expiresAt: Double?)?, JWTError> {
            do throws(JWTError) {
                guard let token = try Self.token(request.headers.values(for: "Authorization")) else { return .success(nil) }
                let claims = try key.verify(token)
                guard let subject = claims.subject, !subject.isEmpty else { throw .malformed("no sub claim") }
                return .success((subject, claims.expiresAt))
            } catch {
                return .failure(error)
            }
        }

        /// A checkpoint request stored: the greater of its id and the one held for the user and client.
        private func held(_ request: CheckpointRequest, userID: String) -> Result<CheckpointRequestAnswer, PowerSync.ServiceError> {
            let service = self.service
            return Blocking.run { () async -> Result<CheckpointRequestAnswer, PowerSync.ServiceError> in
                do throws(PowerSync.ServiceError) {
                    return .success(try await service.checkpointRequest(request, userID: userID))
                } catch {
                    return .failure(error)
                }
            }
        }

        /// The app backend's checkpoint request: `POST` with the app's own credential (here a JWT of
        /// the same key, `Bearer` or `Token`), `{"checkpoint_request_id", "client_id"}`; stores the
        /// greater of the id and the one held for the user and client, which the service's streams
        /// then acknowledge (PowerSync's custom write checkpoints), and answers `{"checkpoint_request_id": "N"}`.
        func checkpointBackend(_ request: HTTPRequest) -> HTTPResponse {
            guard request.method == "POST" else { return Self.json(405, Self.error("METHOD", "POST only")) }
            let body: JSONValue
            switch Self.body(request) {
            case .params(let parsed): body = parsed
            case .refused(let refusal): return refusal
            }
            let checkpointRequest: CheckpointRequest
            do throws(PowerSync.ShapeError) { checkpointRequest = try CheckpointRequest(json: body) } catch {
                return Self.json(400, Self.error(error.kind.protocolCode, "\(error.pointer): \(error.detail)"))
            }
            switch caller(request) {
            case .success((let user, _)?): return Self.answer(held(checkpointRequest, userID: user).map(\.backendJSON))
            case .success(nil): return Self.json(401, Self.error("UNAUTHORIZED", "the app's credential is missing"))
            case .failure(let error): return Self.json(401, Self.error("UNAUTHORIZED", "\(error)"))
            }
        }

        /// A request of one of the three routes, validated.
        private enum Input {
            case stream(SyncStreamRequest)
            case checkpointRequest(CheckpointRequest)
            case writeCheckpoint(WriteCheckpointRequest)
        }

        /// The query's parameters as an object of strings, decoded as a form (`+` is a space, as
        /// Fastify's query parser reads it), the first of a repeated name kept.
        /// - Throws: `PowerSync.ShapeError` (.malformedRequest) for a query that is not percent-encoded.
        static func queryObject(_ query: String?) throws(PowerSync.ShapeError) -> JSONValue {
            guard let query, !query.isEmpty else { return .object(JSONObject()) }
            // URLComponents(string:) refuses a bad escape with nil (its percentEncodedQuery setter traps).
            guard let components = URLComponents(string: "http://service/?" + query.replacingOccurrences(of: "+", with: "%20")) else {
                throw PowerSync.ShapeError(.malformedRequest, at: .root, "the query is not percent-encoded")
            }
            var members: [(String, JSONValue)] = []
            for item in components.queryItems ?? [] where !members.contains(where: { $0.0 == item.name }) {
                members.append((item.name, .string(item.value ?? "")))
            }
            return .object(JSONObject(pairs: members))
        }

        /// The JWT of the one `Authorization` field: `Token <jwt>`, as PowerSync's SDKs send it, or
        /// `Bearer <jwt>`, matched as PowerSync's service matches them, `^(Token|Bearer) (\S+)$` with
        /// the case as written (powersync-ja/powersync-service, packages/service-core/src/routes/auth.ts
        /// at 332d649554ce0ffa6151f57bce920056f2c0b5ea, line 12).
        /// Nil when there is none the service would read (then it answers `PSYNC_S2106`,
        /// "Authentication required", auth.ts lines 27-32).
        static func token(_ fields: [String]) throws(JWTError) -> String? {
            guard fields.count <= 1 else { throw .malformed("more than one Authorization field") }
            return fields.first.flatMap { PowerSync.Surface.credential(authorization: $0) }.map(String.init)
        }

        /// Writes the stream: every answer of the service as it comes, each line flushed, and a last
        /// `token_expires_in: 0` when the token expires. Between answers it waits on a wake-up the service
        /// rings at each change, beside the socket: the stream ends when the client hangs up, when
        /// the token expires (nothing committed after `exp` reaches the holder of an expired token)
        /// and when the server stops.
        private func syncStream(_ start: StreamCursor, expiresAt: Double?, _ stream: HTTPResponseStream) {
            let service = self.service
            let headers: HTTPHeaders = ["Content-Type": "application/x-ndjson", "Cache-Control": "no-store"]
            guard let wakeup = Wakeup() else {
                _ = stream.respond(Self.failure(503, "ServiceUnavailable", "PSYNC_S2003", "no descriptor left for the stream's wake-up"))
                return
            }
            guard Blocking.run({ await service.watch(wakeup) }) else {
                _ = stream.respond(Self.failure(503, "ServiceUnavailable", "PSYNC_S2003", "the service is stopping"))
                return
            }
            defer { Blocking.run { await service.unwatch(wakeup) } }
            guard stream.sendHead(status: 200, headers: headers, contentLength: nil) else { return }
            // No `token_expires_in` at the start while the token is valid: PowerSync's service skips
            // its first test unless the token has expired (sync/util.ts `tokenStream`, lines 66-74).
            let deadline = expiresAt.map { Self.instant(ofEpochSeconds: $0) }
            var cursor = start
            while true {
                if let deadline, ContinuousClock.now >= deadline { break }
                let step = Blocking.run { [cursor] () async -> (Result<[SyncLine], PowerSync.ServiceError>, StreamCursor, Bool) in
                    var next = cursor
                    do throws(PowerSync.ServiceError) {
                        return (.success(try await service.answer(&next)), next, await service.isClosing)
                    } catch {
                        return (.failure(error), next, false)
                    }
                }
                cursor = step.1
                guard case .success(let lines) = step.0 else {
                    stream.abort()
                    return
                }
                if step.2 { break }
                if let deadline, ContinuousClock.now >= deadline { break }
                for line in lines where !Self.send(line, stream) { return }
                if !lines.isEmpty { continue }
                switch stream.wait(for: wakeup, until: deadline) {
                case .woken: continue
                case .deadline: break
                case .peerGone: return
                }
                break
            }
            // At expiry PowerSync's service says so with a last `token_expires_in: 0` and ends the
            // stream (packages/service-core/src/sync/util.ts, lines 66-74, at the commit above).
            if let deadline, ContinuousClock.now >= deadline, !Self.send(.tokenExpiresIn(0), stream) { return }
            _ = stream.finish()
        }

        /// The monotonic instant of a time in seconds since 1970 (a token's `exp`).
        private static func instant(ofEpochSeconds seconds: Double) -> ContinuousClock.Instant {
            let left = seconds - Date().timeIntervalSince1970
            return ContinuousClock.now.advanced(by: .milliseconds(Int64(max(0, min(left, 1e9)) * 1000)))
        }

        private static func send(_ line: SyncLine, _ stream: HTTPResponseStream) -> Bool {
            stream.send(Array((CanonicalJSON.compact(line.json) + "\n").utf8)) && stream.flush()
        }

        /// The route's parameters from the body, as PowerSync's service takes them
        /// (route-register.ts L37-47: only an object body is merged, so any other JSON is `{}`), or
        /// Fastify's refusal of a JSON body that does not parse (fastify `lib/errors.js` at 83e6976:
        /// `FST_ERR_CTP_EMPTY_JSON_BODY`, `FST_ERR_CTP_INVALID_JSON_BODY`, 400; `@fastify/error` names
        /// them `FastifyError`), answered through `fastifyErrorToResponse` (route-register.ts L163-185).
        static func body(_ request: HTTPRequest) -> Body {
            if request.body.isEmpty {
                guard Self.isJSON(request) else { return .params(.object(JSONObject())) }
                return .refused(
                    failure(
                        400, "FastifyError", "FST_ERR_CTP_EMPTY_JSON_BODY",
                        "Body cannot be empty when content-type is set to 'application/json'"))
            }
            guard let parsed = try? JSONParser.parse(request.body) else {
                return .refused(
                    failure(
                        400, "FastifyError", "FST_ERR_CTP_INVALID_JSON_BODY",
                        "Body is not valid JSON but content-type is set to 'application/json'"))
            }
            return .params(parsed.objectValue == nil ? .object(JSONObject()) : parsed)
        }

        /// A body read: the route's parameters, or the parser's refusal.
        enum Body {
            case params(JSONValue)
            case refused(HTTPResponse)
        }

        /// Whether the request says its body is JSON (`application/json`, parameters aside).
        private static func isJSON(_ request: HTTPRequest) -> Bool {
            let type = request.headers["Content-Type"]?.split(separator: ";").first.map { HTTPHeaders.trimmed($0).lowercased() }
            return type == "application/json"
        }

        static func answer(_ result: Result<JSONValue, PowerSync.ServiceError>) -> HTTPResponse {
            switch result {
            case .success(let body): json(200, body)
            // What the service's asServiceError makes of an error it does not know (service-errors
            // errors.ts, `InternalServerError`: "Something went wrong", the message in `details`).
            case .failure(let error):
                failure(500, "InternalServerError", "PSYNC_S2001", "Something went wrong", details: "\(error)", severity: "error")
            }
        }

        /// A `ServiceError` as PowerSync's service writes it (service-errors `errors.ts`, `toJSON` in
        /// production): `{"error": {"name", "code", "status", "description", "details"?}}`.
        static func failure(
            _ status: Int, _ name: String, _ code: String, _ description: String, details: String? = nil, severity: String? = nil
        ) -> HTTPResponse {
            var members: [(String, JSONValue)] = [
                ("name", .string(name)), ("code", .string(code)), ("status", .number(JSONNumber(status))),
                ("description", .string(description)),
            ]
            if let details { members.append(("details", .string(details))) }
            if let severity { members.append(("severity", .string(severity))) }
            return json(status, .object(JSONObject(pairs: [("error", .object(JSONObject(pairs: members)))])))
        }

        /// `ValidationError`: 400 `PSYNC_S2001` "Validation failed", the errors as JSON in `details`.
        static func validationFailed(_ errors: [String]) -> HTTPResponse {
            failure(
                400, "ValidationError", "PSYNC_S2001", "Validation failed",
                details: CanonicalJSON.compact(.array(errors.map(JSONValue.string)))
            )
        }

        /// `RouteNotFound`: 404 `PSYNC_S2002`, whatever the credentials.
        static func routeNotFound(_ request: HTTPRequest) -> HTTPResponse {
            var path: [UInt8] = []
            CanonicalJSON.appendString(request.target, to: &path)
            return failure(
                404, "RouteNotFound", "PSYNC_S2002", "The path does not exist on this server",
                details: "The path \(request.method) \(String(decoding: path, as: UTF8.self)) does not exist on this server",
                severity: "info")
        }

        static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(CanonicalJSON.compact(body).utf8))
        }

        static func error(_ code: String, _ description: String) -> JSONValue {
            .object(
                JSONObject(pairs: [("error", .object(JSONObject(pairs: [("code", .string(code)), ("description", .string(description))])))])
            )
        }
    }
}
