import Foundation
import HTTP
import JSON
import Serve
import ServerContract
import Testing

/// `PostgRESTRouter` in memory: authentication, negotiation, bodies, paths and the fixture endpoint.
@Suite("PostgREST router")
struct RouterTests {
    static let key = JWTKey(secret: "router-secret")
    static let token = key.mint(for: Identity(user: "user-1", session: "client-1"))

    static func request(
        _ path: String, method: String = "POST", body: String = "{}", token: String? = RouterTests.token,
        headers extra: [(String, String)] = [], listener: String = "127.0.0.1"
    ) -> HTTPRequest {
        var headers: HTTPHeaders = ["Host": "127.0.0.1:54321", "Content-Type": "application/json"]
        if let token { headers.add("Authorization", "Bearer \(token)") }
        for (name, value) in extra { headers.set(name, value) }
        return HTTPRequest(
            method: method, target: path, headers: headers, body: Array(body.utf8), listener: HTTPEndpoint(host: listener, port: 1))
    }

    static func json(_ response: HTTPResponse) -> JSONValue? { try? JSONParser.parse(response.body) }

    static func code(_ response: HTTPResponse) -> String? { json(response)?["code"]?.stringValue }

    @Test("pull and push reach the target with the JWT's identity and come back as JSON")
    func rpcs() async throws {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: Self.key)
        let pull = await router.handle(Self.request("/rest/v1/rpc/pull", body: #"{"cursor":"0"}"#))
        #expect(pull.status == 200)
        #expect(pull.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(Self.json(pull)?["echo"] == ["cursor": "0"])
        let push = await router.handle(
            Self.request("/rest/v1/rpc/push", body: #"{"schema_version":0}"#, headers: [("Content-Profile", "kizunasync")]))
        #expect(push.status == 400)
        #expect(Self.code(push) == "22023")
        let identity = Identity(user: "user-1", session: "client-1")
        #expect(await stub.calls == [.pull(["cursor": "0"], identity), .push(["schema_version": 0], identity)])
    }

    @Test("a missing, malformed, forged or expired JWT is a PostgREST 401")
    func authentication() async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: Self.key, now: { Date(timeIntervalSince1970: 2_000_000_000) })
        let missing = await router.handle(Self.request("/rest/v1/rpc/pull", token: nil))
        #expect(missing.status == 401)
        #expect(Self.code(missing) == "PGRST302")
        #expect(missing.headers["WWW-Authenticate"] == "Bearer")
        let forged = JWTKey(secret: "other").mint(for: Identity(user: "u", session: nil))
        let expired = Self.key.mint(for: Identity(user: "u", session: nil), expiresAt: 1_999_999_999)
        for token in ["garbage", forged, expired] {
            let response = await router.handle(Self.request("/rest/v1/rpc/pull", token: token))
            #expect(response.status == 401)
            #expect(Self.code(response) == "PGRST301")
        }
        let expiredResponse = await router.handle(Self.request("/rest/v1/rpc/pull", token: expired))
        #expect(Self.json(expiredResponse)?["message"] == "JWT expired")
        let basic = await router.handle(Self.request("/rest/v1/rpc/pull", token: nil, headers: [("Authorization", "Basic dTpw")]))
        #expect(basic.status == 401)
        #expect(await stub.calls.isEmpty)
    }

    @Test("profile, content type and Accept are negotiated as PostgREST does")
    func negotiation() async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: Self.key)
        let profile = await router.handle(Self.request("/rest/v1/rpc/pull", headers: [("Content-Profile", "public")]))
        #expect(profile.status == 406)
        #expect(Self.code(profile) == "PGRST106")
        let type = await router.handle(Self.request("/rest/v1/rpc/pull", headers: [("Content-Type", "text/plain")]))
        #expect(type.status == 415)
        let accept = await router.handle(Self.request("/rest/v1/rpc/pull", headers: [("Accept", "text/html")]))
        #expect(accept.status == 406)
        let fine = await router.handle(
            Self.request(
                "/rest/v1/rpc/pull", headers: [("Accept", "application/json"), ("Content-Type", "application/json; charset=utf-8")]))
        #expect(fine.status == 200)
        #expect(await stub.calls.count == 1)
    }

    @Test("bad JSON, non-objects and repeated keys are 400 PGRST102 and never reach the target")
    func bodies() async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: Self.key)
        for body in ["", "{", "[]", "\"x\"", #"{"a":1,"a":2}"#, "{}x", "\u{FF}"] {
            let response = await router.handle(Self.request("/rest/v1/rpc/push", body: body))
            #expect(response.status == 400, "\(body)")
            #expect(Self.code(response) == "PGRST102")
        }
        #expect(await stub.calls.isEmpty)
    }

    @Test("unknown paths, functions and methods get PostgREST errors")
    func paths() async {
        let router = PostgRESTRouter(target: StubTarget(), key: Self.key)
        let unknown = await router.handle(Self.request("/nowhere"))
        #expect(unknown.status == 404)
        #expect(Self.code(unknown) == "PGRST125")
        let function = await router.handle(Self.request("/rest/v1/rpc/drop_everything"))
        #expect(function.status == 404)
        #expect(Self.code(function) == "PGRST202")
        let get = await router.handle(Self.request("/rest/v1/rpc/pull", method: "GET"))
        #expect(get.status == 405)
        #expect(get.headers["Allow"] == "POST")
    }

    @Test("a failing target maps to 503, 501 or 409")
    func targetFailures() async {
        for (failure, status) in [(TargetError.unreachable("down"), 503), (.unsupported("holes"), 501), (.refused("no"), 409)] {
            let router = PostgRESTRouter(target: StubTarget(failure: failure), key: Self.key, fixtures: true)
            #expect(await router.handle(Self.request("/rest/v1/rpc/pull")).status == status)
            #expect(await router.handle(Self.request("/accord/fixtures/commit", body: #"{"txn":"t1"}"#)).status == status)
        }
    }

    @Test("an apikey, when configured, must match")
    func apiKey() async {
        let router = PostgRESTRouter(target: StubTarget(), key: Self.key, apiKey: "anon")
        #expect(await router.handle(Self.request("/rest/v1/rpc/pull")).status == 401)
        #expect(await router.handle(Self.request("/rest/v1/rpc/pull", headers: [("apikey", "anon")])).status == 200)
    }
}
