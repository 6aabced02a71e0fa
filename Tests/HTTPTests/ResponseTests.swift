import HTTP
import Testing

/// Response serialization: Content-Length, Connection, bodyless statuses, HEAD, header hygiene.
@Suite("Response serialization")
struct ResponseTests {
    private static func text(_ response: HTTPResponse, version: HTTPVersion = .http11, keepAlive: Bool = true, head: Bool = false) -> String
    {
        String(decoding: response.serialized(version: version, keepAlive: keepAlive, omitBody: head, date: "D"), as: UTF8.self)
    }

    @Test("a body is framed by Content-Length; reserved headers from the handler are dropped")
    func framing() {
        let response = HTTPResponse(
            status: 200, headers: ["X-A": "1", "content-length": "99", "Connection": "upgrade"], body: Array("hi".utf8))
        #expect(Self.text(response) == "HTTP/1.1 200 OK\r\nX-A: 1\r\nDate: D\r\nServer: accord\r\nContent-Length: 2\r\n\r\nhi")
    }

    @Test("Connection: close when closing, keep-alive for a kept HTTP/1.0 connection")
    func connection() {
        let response = HTTPResponse(status: 404)
        #expect(Self.text(response, keepAlive: false).contains("\r\nConnection: close\r\n"))
        #expect(Self.text(response, version: .http10).hasPrefix("HTTP/1.0 404 Not Found\r\n"))
        #expect(Self.text(response, version: .http10).contains("\r\nConnection: keep-alive\r\n"))
        #expect(!Self.text(response).contains("Connection:"))
    }

    @Test("204 has no length or body; HEAD keeps the length and drops the body")
    func bodyless() {
        #expect(!Self.text(HTTPResponse(status: 204, body: [1])).contains("Content-Length"))
        let head = Self.text(HTTPResponse.text(status: 200, "abc"), head: true)
        #expect(head.contains("Content-Length: 4\r\n"))
        #expect(head.hasSuffix("\r\n\r\n"))
    }

    @Test("CR and LF in header values cannot split the response")
    func injection() {
        let response = HTTPResponse(status: 200, headers: ["X-Evil": "a\r\nSet-Cookie: x=1"])
        #expect(!Self.text(response).contains("\r\nSet-Cookie"))
    }

    @Test("a response asking to close is recognised")
    func closes() {
        #expect(HTTPResponse(status: 200, headers: ["Connection": "close"]).closesConnection)
        #expect(!HTTPResponse(status: 200).closesConnection)
    }
}
