import Foundation
import HTTP
import JSON
import KizunaWire
import ServerContract

/// Puts a `KizunaSync.ServerTarget` behind the PostgREST surface KizunaSync clients call
/// (`POST /rest/v1/rpc/pull|push`) and, when enabled on a loopback listener, the fixture
/// endpoint of docs/server-contract.md (`POST /accord/fixtures/seed|step|change|commit`,
/// `GET /accord/fixtures/capabilities`).
public struct PostgRESTRouter: Sendable {
    /// The server answering the RPCs and fixture operations.
    public let target: any KizunaSync.ServerTarget
    private let key: JWTKey
    private let profile: String
    private let fixtures: Bool
    private let apiKey: String?
    private let now: @Sendable () -> Date

    /// Makes a router.
    /// - Parameters:
    ///   - target: the server to drive.
    ///   - key: the HS256 secret JWTs are verified with.
    ///   - profile: the schema `Content-Profile` must name (default kizunasync).
    ///   - fixtures: whether the fixture endpoint answers (only ever on a loopback listener).
    ///   - apiKey: when set, the `apikey` header must equal it.
    ///   - now: the clock `exp` is judged by.
    public init(
        target: any KizunaSync.ServerTarget, key: JWTKey, profile: String = PostgRESTSurface.profile, fixtures: Bool = false,
        apiKey: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.target = target
        self.key = key
        self.profile = profile
        self.fixtures = fixtures
        self.apiKey = apiKey
        self.now = now
    }

    /// Starts an HTTP server answering with this router; refusals get PostgREST-shaped bodies.
    /// - Parameter configuration: address, limits and timeouts (its `errorResponse` is replaced).
    /// - Returns: the running server.
    /// - Throws: `HTTPError` when the address cannot be bound.
    public func serve(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration()) throws(HTTPError) -> HTTPServer {
        var configuration = configuration
        configuration.errorResponse = PostgRESTReply.refusal
        let router = self
        return try HTTPServer.start(configuration) { request in await router.handle(request) }
    }

    /// Answers one request.
    /// - Returns: the response; every error is a PostgREST-shaped JSON object.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.asksForServerOptions { return .serverOptions(allowing: ["GET", "POST"]) }
        let path = request.path
        if path.hasPrefix(PostgRESTSurface.rpcPrefix) {
            let function = String(path.dropFirst(PostgRESTSurface.rpcPrefix.count))
            guard PostgRESTSurface.rpc(atPath: path) != nil else {
                return PostgRESTReply.error(
                    status: 404, code: "PGRST202", "Could not find the function \(profile).\(function) in the schema cache")
            }
            return await rpc(function, request)
        }
        if path.hasPrefix("/accord/fixtures/"), fixtures, request.listener.isLoopback {
            return await fixture(String(path.dropFirst("/accord/fixtures/".count)), request)
        }
        return PostgRESTReply.error(status: 404, code: "PGRST125", "Invalid path specified in request URL")
    }

    private func rpc(_ function: String, _ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "POST" else {
            var response = PostgRESTReply.error(status: 405, code: "PGRST117", "Unsupported HTTP method: \(request.method)")
            response.headers.add("Allow", "POST")
            return response
        }
        if let apiKey, request.headers[PostgRESTSurface.Header.apikey] != apiKey {
            return PostgRESTReply.unauthorized(code: "PGRST302", "No API key found in request or it does not match")
        }
        let identity: Identity
        switch authenticate(request) {
        case .success(let caller): identity = caller
        case .failure(let refusal): return refusal.response
        }
        if let refusal = negotiate(request) { return refusal }
        let body: JSONValue
        switch jsonObject(request) {
        case .success(let value): body = value
        case .failure(let refusal): return refusal.response
        }
        do throws(TargetError) {
            let reply = function == "pull" ? try await target.pull(body, as: identity) : try await target.push(body, as: identity)
            return PostgRESTReply.response(reply)
        } catch {
            return PostgRESTReply.targetFailure(error)
        }
    }

    private func authenticate(_ request: HTTPRequest) -> Result<Identity, Refusal> {
        guard let authorization = request.headers[PostgRESTSurface.Header.authorization] else {
            return .failure(Refusal(PostgRESTReply.unauthorized(code: "PGRST302", "Anonymous access is disabled")))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .failure(Refusal(PostgRESTReply.unauthorized(code: "PGRST301", "Authorization is not a Bearer token")))
        }
        do throws(JWTError) {
            return .success(try key.identity(String(parts[1]).trimmingCharacters(in: .whitespaces), now: now()))
        } catch {
            let message = error.isExpired ? "JWT expired" : error.description
            return .failure(Refusal(PostgRESTReply.unauthorized(code: "PGRST301", message)))
        }
    }

    /// Content-Profile, Content-Type and Accept.
    private func negotiate(_ request: HTTPRequest) -> HTTPResponse? {
        if let requested = request.headers[PostgRESTSurface.Header.contentProfile], requested != profile {
            return PostgRESTReply.error(status: 406, code: "PGRST106", "The schema must be one of the following: \(profile)")
        }
        let mediaType = request.headers[PostgRESTSurface.Header.contentType]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard mediaType == "application/json" else {
            return PostgRESTReply.error(
                status: 415, code: "PGRST107",
                "The Content-Type must be application/json, found \(request.headers["Content-Type"] ?? "none")")
        }
        if let accept = request.headers[PostgRESTSurface.Header.accept] {
            let ranges = accept.split(separator: ",").compactMap {
                $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard ranges.contains(where: { ["*/*", "application/*", "application/json"].contains($0) }) else {
                return PostgRESTReply.error(status: 406, code: "PGRST107", "None of these media types are available: \(accept)")
            }
        }
        return nil
    }

    private func jsonObject(_ request: HTTPRequest) -> Result<JSONValue, Refusal> {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(request.body)
        } catch {
            return .failure(
                Refusal(PostgRESTReply.error(status: 400, code: "PGRST102", "Empty or invalid json", details: error.description)))
        }
        guard let object = value.objectValue else {
            return .failure(
                Refusal(
                    PostgRESTReply.error(status: 400, code: "PGRST102", "The request body must be a JSON object, found \(value.typeName)")))
        }
        if let duplicate = object.firstDuplicateKey {
            return .failure(
                Refusal(PostgRESTReply.error(status: 400, code: "PGRST102", "The request body repeats the key \"\(duplicate)\"")))
        }
        return .success(value)
    }

    private func fixture(_ operation: String, _ request: HTTPRequest) async -> HTTPResponse {
        if let refusal = FixtureAccess.refusal(request) { return PostgRESTReply.error(status: 403, code: "ACF04", refusal) }
        guard ["seed", "step", "change", "commit", "capabilities"].contains(operation) else {
            return PostgRESTReply.error(status: 404, code: "PGRST125", "Invalid path specified in request URL")
        }
        if operation == "capabilities" {
            guard request.method == "GET" else {
                var response = PostgRESTReply.error(status: 405, code: "PGRST117", "Unsupported HTTP method: \(request.method)")
                response.headers.add("Allow", "GET")
                return response
            }
            do throws(TargetError) {
                return PostgRESTReply.response(
                    RPCReply(status: 200, body: FixtureRequest.body(capabilities: try await target.capabilities())))
            } catch {
                return PostgRESTReply.targetFailure(error)
            }
        }
        guard request.method == "POST" else {
            var response = PostgRESTReply.error(status: 405, code: "PGRST117", "Unsupported HTTP method: \(request.method)")
            response.headers.add("Allow", "POST")
            return response
        }
        let body: JSONValue
        switch jsonObject(request) {
        case .success(let value): body = value
        case .failure(let refusal): return refusal.response
        }
        do {
            switch operation {
            case "seed":
                let receipt = try await target.seed(try FixtureRequest.seed(body))
                return PostgRESTReply.response(RPCReply(status: 200, body: FixtureRequest.body(receipt: receipt)))
            case "step": try await target.setStep(try FixtureRequest.step(body))
            case "change":
                let (change, transaction) = try FixtureRequest.change(body)
                try await target.apply(change, heldIn: transaction)
            default: try await target.commit(transaction: try FixtureRequest.commit(body))
            }
            return HTTPResponse(status: 204)
        } catch let error as WireError {
            return PostgRESTReply.error(status: 400, code: "PGRST102", "Invalid fixture body", details: error.description)
        } catch let error as TargetError {
            return PostgRESTReply.targetFailure(error)
        } catch {
            return PostgRESTReply.error(status: 500, code: "ACF03", "\(error)")
        }
    }
}

/// A finished error response carried through `Result`.
private struct Refusal: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
