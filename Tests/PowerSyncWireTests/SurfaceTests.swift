import PowerSyncWire
import Testing

@Suite("PowerSync's wire surface")
struct SurfaceTests {
    @Test("the three routes are recognised by their exact paths, with their methods")
    func exactPaths() {
        #expect(PowerSync.Surface.route(atPath: "/sync/stream") == .syncStream)
        #expect(PowerSync.Surface.route(atPath: "/sync/checkpoint-request") == .checkpointRequest)
        #expect(PowerSync.Surface.route(atPath: "/write-checkpoint2.json") == .writeCheckpoint)
        #expect(PowerSync.Surface.Route.syncStream.method == "POST" && PowerSync.Surface.Route.writeCheckpoint.method == "GET")
        #expect(PowerSync.Surface.Route.checkpointRequest.method == "POST")
        #expect(PowerSync.Surface.Route.allCases.filter(\.answersNDJSON) == [.syncStream])
    }

    @Test("other paths, prefixes and near misses are no route")
    func otherPaths() {
        for path in ["/", "/sync", "/sync/stream/", "/sync/streams", "/api/sync/stream", "/write-checkpoint.json", "/rest/v1/rpc/pull"] {
            #expect(PowerSync.Surface.route(atPath: path) == nil, "\(path)")
        }
    }

    @Test("a captured path is recognised under a mount point and with a query or fragment")
    func capturedPaths() {
        #expect(PowerSync.Surface.route(inCapturedPath: "/powersync/sync/stream") == .syncStream)
        #expect(PowerSync.Surface.route(inCapturedPath: "/write-checkpoint2.json?client_id=c1") == .writeCheckpoint)
        #expect(PowerSync.Surface.route(inCapturedPath: "/x/sync/checkpoint-request#frag") == .checkpointRequest)
        #expect(PowerSync.Surface.route(inCapturedPath: "/sync/stream/extra") == nil)
        #expect(PowerSync.Surface.route(inCapturedPath: "/q?next=/sync/stream") == nil)
    }

    @Test("a route's kind is the transcript step kind, and reads back")
    func kinds() {
        for route in PowerSync.Surface.Route.allCases {
            #expect(PowerSync.Surface.route(kind: route.rawValue) == route)
            #expect(PowerSync.Surface.route(atPath: route.path) == route)
        }
        #expect(PowerSync.Surface.Route.allCases.map(\.rawValue) == ["sync-stream", "checkpoint-request", "write-checkpoint"])
        #expect(PowerSync.Surface.route(kind: "pull") == nil)
    }

    @Test("the user is the sub claim of a Token or Bearer JWT, unverified; anything else names none")
    func user() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLWFkYSJ9.c2ln"
        #expect(PowerSync.Surface.user(authorization: "Token \(jwt)") == "user-ada")
        #expect(PowerSync.Surface.user(authorization: "bearer \(jwt)") == "user-ada")
        for value in ["Basic \(jwt)", "Token", "Token abc", "Token eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln", jwt] {
            #expect(PowerSync.Surface.user(authorization: value) == nil, "\(value)")
        }
        #expect(PowerSync.Surface.user(authorization: nil) == nil)
    }

    /// powersync-ja/powersync-service packages/service-core/src/routes/auth.ts at
    /// 332d649554ce0ffa6151f57bce920056f2c0b5ea, line 12: `/^(Token|Bearer) (\S+)$/`.
    @Test("a credential is Token or Bearer, case as written, one space, a token with no whitespace")
    func credential() {
        #expect(PowerSync.Surface.credential(authorization: "Token abc") == "abc")
        #expect(PowerSync.Surface.credential(authorization: "Bearer abc.def") == "abc.def")
        for value in ["token abc", "bearer abc", "BEARER abc", "Token", "Token ", "Token  abc", "Token a b", "Basic abc", "abc"] {
            #expect(PowerSync.Surface.credential(authorization: value) == nil, "\(value)")
        }
        #expect(PowerSync.Surface.clientScheme == "Token")
    }

    @Test("the fixture endpoint's four calls are named by their exact paths, a query aside")
    func fixturePaths() {
        #expect(
            PowerSync.Surface.Fixture.allCases.map(\.path) == [
                "/accord/powersync/reset", "/accord/powersync/configure", "/accord/powersync/source", "/accord/powersync/replicate",
            ])
        #expect(PowerSync.Surface.fixture(atPath: "/accord/powersync/source") == .source)
        #expect(PowerSync.Surface.fixture(atPath: "/accord/powersync/replicate?x=1") == .replicate)
        for path in ["/accord/powersync/other", "/accord/powersync/", "/api/accord/powersync/source", "/sync/stream"] {
            #expect(PowerSync.Surface.fixture(atPath: path) == nil, "\(path)")
        }
    }
}
