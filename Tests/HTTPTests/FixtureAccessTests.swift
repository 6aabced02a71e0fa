import HTTP
import Serve
import Testing

/// `FixtureAccess` through the router: only loopback `Host`s, no foreign `Origin`, JSON bodies;
/// a refusal is 403 `ACF04`, PostgREST-shaped, and reaches no target.
@Suite("Fixture endpoint: who may call it")
struct FixtureAccessTests {
    static func step(_ headers: [(String, String)]) -> HTTPRequest {
        RouterTests.request("/accord/fixtures/step", body: #"{"n":1}"#, token: nil, headers: headers)
    }

    @Test(
        "a loopback Host, a loopback Origin or none, and an application/json body are answered",
        arguments: [
            [("Host", "127.0.0.1")], [("Host", "127.0.0.1:8080")], [("Host", "127.1.2.3:1")], [("Host", "localhost")],
            [("Host", "LOCALHOST:3000")], [("Host", "[::1]")], [("Host", "[::1]:8080")], [("Host", "localhost.")],
            [("Origin", "http://127.0.0.1:5173")], [("Origin", "http://localhost")], [("Origin", "https://[::1]:8443")],
            [("Content-Type", "application/json; charset=utf-8")], [("Content-Type", "Application/JSON")],
        ])
    func admitted(_ headers: [(String, String)]) async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        let response = await router.handle(Self.step(headers))
        #expect(response.status == 204, "\(headers): \(String(decoding: response.body, as: UTF8.self))")
        #expect(await stub.calls == [.step(1)])
    }

    @Test(
        "a foreign Host, a foreign or opaque Origin, or a body that is not application/json is 403 and reaches nothing",
        arguments: [
            [("Host", "evil.example")], [("Host", "evil.example:8080")], [("Host", "127.0.0.1.evil.example")], [("Host", "192.168.1.2")],
            [("Host", "localhost.evil.example")], [("Host", "[::2]:80")], [("Host", "127.0.0.1:x")], [("Host", "")],
            [("Origin", "http://evil.example")], [("Origin", "null")], [("Origin", "http://127.0.0.1.evil.example")],
            [("Origin", "http://user@127.0.0.1")], [("Origin", "file://")], [("Content-Type", "text/plain")],
            [("Content-Type", "application/x-www-form-urlencoded")], [("Content-Type", "multipart/form-data; boundary=x")],
            [("Content-Type", "application/jsonx")],
        ])
    func refused(_ headers: [(String, String)]) async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        let response = await router.handle(Self.step(headers))
        #expect(response.status == 403, "\(headers)")
        #expect(RouterTests.code(response) == "ACF04")
        #expect(RouterTests.json(response)?.objectValue?.keys.sorted() == ["code", "details", "hint", "message"])
        #expect(await stub.calls.isEmpty)
    }

    @Test("a request without Host or Content-Type, or with two Origins, is 403; GET capabilities needs no body type")
    func missingAndRepeated() async {
        let stub = StubTarget()
        let router = PostgRESTRouter(target: stub, key: RouterTests.key, fixtures: true)
        var request = Self.step([])
        request.headers.remove("Host")
        #expect(await router.handle(request).status == 403)
        request = Self.step([])
        request.headers.remove("Content-Type")
        #expect(await router.handle(request).status == 403)
        request = Self.step([])
        request.headers.add("Origin", "http://127.0.0.1")
        request.headers.add("Origin", "http://evil.example")
        #expect(await router.handle(request).status == 403)
        #expect(await stub.calls.isEmpty)
        var capabilities = RouterTests.request("/accord/fixtures/capabilities", method: "GET", body: "", token: nil)
        capabilities.headers.remove("Content-Type")
        #expect(await router.handle(capabilities).status == 200)
    }

    @Test("OPTIONS * is answered 204 with Allow, whatever the fixture setting")
    func serverOptions() async {
        for fixtures in [false, true] {
            let router = PostgRESTRouter(target: StubTarget(), key: RouterTests.key, fixtures: fixtures)
            let response = await router.handle(HTTPRequest(method: "OPTIONS", target: "*", headers: ["Host": "h"]))
            #expect(response.status == 204)
            #expect(response.headers["Allow"] == "GET, POST")
        }
    }
}
