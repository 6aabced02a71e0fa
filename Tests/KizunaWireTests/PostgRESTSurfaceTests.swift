import JSON
import KizunaWire
import Testing

@Suite("PostgREST surface: routes, error bodies, bearer claims")
struct PostgRESTSurfaceTests {
    @Test("an RPC's path is /rest/v1/rpc/<name>, and only pull and push are recognised there")
    func routes() {
        #expect(PostgRESTSurface.rpcPath("pull") == "/rest/v1/rpc/pull")
        #expect(PostgRESTSurface.rpc(atPath: "/rest/v1/rpc/pull") == "pull")
        #expect(PostgRESTSurface.rpc(atPath: "/rest/v1/rpc/push") == "push")
        #expect(PostgRESTSurface.rpc(atPath: "/rest/v1/rpc/pulls") == nil)
        #expect(PostgRESTSurface.rpc(atPath: "/gateway/rest/v1/rpc/pull") == nil)
        #expect(PostgRESTSurface.rpc(atPath: "/rest/v1/rpc/") == nil)
    }

    @Test("a captured path is recognised by its …/rpc/<name> ending, under a mount point and before a query")
    func capturedRoutes() {
        #expect(PostgRESTSurface.rpc(inCapturedPath: "/rest/v1/rpc/pull") == "pull")
        #expect(PostgRESTSurface.rpc(inCapturedPath: "/gateway/rest/v1/rpc/push?x=1") == "push")
        #expect(PostgRESTSurface.rpc(inCapturedPath: "/rest/v1/rpc/pull/more") == nil)
        #expect(PostgRESTSurface.rpc(inCapturedPath: "/rest/v1/items") == nil)
    }

    @Test("the error object has code, details, hint and message, absent ones null")
    func errorBody() {
        #expect(
            CanonicalJSON.compact(PostgRESTSurface.errorBody(code: "PGRST202", message: "no such function"))
                == #"{"code":"PGRST202","details":null,"hint":null,"message":"no such function"}"#)
        #expect(
            CanonicalJSON.compact(PostgRESTSurface.errorBody(code: "22023", message: "m", details: "d", hint: "h"))
                == #"{"code":"22023","details":"d","hint":"h","message":"m"}"#)
    }

    @Test("a bearer JWT's sub and session_id are read without verifying it, padded or not")
    func bearerIdentity() {
        let payload = Base64URL.encode(Array(#"{"sub":"u1","session_id":"c1","role":"authenticated"}"#.utf8))
        let identity = PostgRESTSurface.bearerIdentity(authorization: "Bearer e30.\(payload).sig")
        #expect(identity.user == "u1")
        #expect(identity.client == "c1")
        let padded = payload + String(repeating: "=", count: (4 - payload.count % 4) % 4)
        #expect(PostgRESTSurface.bearerIdentity(authorization: "bearer e30.\(padded).sig").user == "u1")
    }

    @Test("anything but a three-part bearer token with a JSON object payload has no identity")
    func noIdentity() {
        let none = PostgRESTSurface.BearerIdentity()
        #expect(PostgRESTSurface.bearerIdentity(authorization: String?.none) == none)
        #expect(PostgRESTSurface.bearerIdentity(authorization: "Basic dXNlcjpwdw==") == none)
        #expect(PostgRESTSurface.bearerIdentity(authorization: "Bearer a.b") == none)
        #expect(PostgRESTSurface.bearerIdentity(authorization: "Bearer e30.!!!.sig") == none)
        let array = Base64URL.encode(Array("[1]".utf8))
        #expect(PostgRESTSurface.bearerIdentity(authorization: "Bearer e30.\(array).sig") == none)
    }
}
