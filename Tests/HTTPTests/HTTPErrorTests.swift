import HTTP
import Testing

/// `HTTPError` maps each refusal to its status.
@Suite("HTTPError statuses")
struct HTTPErrorTests {
    @Test("each kind answers its status")
    func statuses() {
        #expect(HTTPError.badRequest("x").status == 400)
        #expect(HTTPError.uriTooLong("x").status == 414)
        #expect(HTTPError.headersTooLarge("x").status == 431)
        #expect(HTTPError.bodyTooLarge("x").status == 413)
        #expect(HTTPError.timeout("x").status == 408)
        #expect(HTTPError.versionNotSupported("x").status == 505)
        #expect(HTTPError.notImplemented("x").status == 501)
        #expect(HTTPError.expectationFailed("x").status == 417)
        #expect(HTTPError.unavailable("x").status == 503)
        #expect(HTTPError.socket("x").isSocketError)
        #expect(HTTPError.socket("x").status == 500)
    }
}

/// `HTTPEndpoint`: `--listen` values and loopback detection.
@Suite("HTTPEndpoint")
struct HTTPEndpointTests {
    @Test("listen values parse as host and port")
    func listen() {
        #expect(HTTPEndpoint(listen: "127.0.0.1:8080") == HTTPEndpoint(host: "127.0.0.1", port: 8080))
        #expect(HTTPEndpoint(listen: "[::1]:0") == HTTPEndpoint(host: "::1", port: 0))
        #expect(HTTPEndpoint(listen: "localhost:1")?.isLoopback == true)
        for bad in ["8080", "127.0.0.1", "127.0.0.1:", ":80", "::1:80", "[::1]80", "h:65536", "h:-1", "h:+1"] {
            #expect(HTTPEndpoint(listen: bad) == nil, "\(bad)")
        }
    }

    @Test("loopback is 127.0.0.0/8 and ::1 only")
    func loopback() {
        #expect(HTTPEndpoint.isLoopback("127.0.0.1"))
        #expect(HTTPEndpoint.isLoopback("127.255.0.9"))
        #expect(HTTPEndpoint.isLoopback("::1"))
        #expect(!HTTPEndpoint.isLoopback("0.0.0.0"))
        #expect(!HTTPEndpoint.isLoopback("::"))
        #expect(!HTTPEndpoint.isLoopback("10.0.0.1"))
        #expect(!HTTPEndpoint.isLoopback("128.0.0.1"))
        #expect(HTTPEndpoint(host: "::1", port: 5).description == "[::1]:5")
    }
}
