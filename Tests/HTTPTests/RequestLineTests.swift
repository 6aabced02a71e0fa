import HTTP
import Testing

/// The request line: method, target, version, and the 8 KiB limit.
@Suite("Request line parsing")
struct RequestLineTests {
    @Test("a minimal GET parses with path and query")
    func minimal() throws {
        let request = try #require(ParserSupport.request(ParserSupport.parse("GET /a/b?x=1&y HTTP/1.1\r\nHost: h\r\n\r\n")))
        #expect(request.method == "GET")
        #expect(request.path == "/a/b")
        #expect(request.query == "x=1&y")
        #expect(request.version == .http11)
        #expect(request.body.isEmpty)
        #expect(request.keepAlive)
    }

    @Test("HTTP/1.0 needs no Host and closes by default")
    func http10() throws {
        let request = try #require(ParserSupport.request(ParserSupport.parse("GET / HTTP/1.0\r\n\r\n")))
        #expect(request.version == .http10)
        #expect(!request.keepAlive)
        let kept = try #require(ParserSupport.request(ParserSupport.parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")))
        #expect(kept.keepAlive)
    }

    @Test("Connection: close ends an HTTP/1.1 connection")
    func connectionClose() throws {
        let request = try #require(
            ParserSupport.request(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade, close\r\n\r\n")))
        #expect(!request.keepAlive)
    }

    @Test("absolute-form keeps only the path; asterisk-form only for OPTIONS")
    func targetForms() throws {
        let absolute = try #require(ParserSupport.request(ParserSupport.parse("GET http://h:1/p?q HTTP/1.1\r\nHost: h\r\n\r\n")))
        #expect(absolute.path == "/p")
        #expect(absolute.query == "q")
        #expect(ParserSupport.request(ParserSupport.parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n")) != nil)
        #expect(ParserSupport.status(ParserSupport.parse("GET * HTTP/1.1\r\nHost: h\r\n\r\n")) == 400)
    }

    @Test("leading empty lines are skipped")
    func leadingEmptyLines() {
        #expect(ParserSupport.request(ParserSupport.parse("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")) != nil)
    }

    @Test(
        "malformed request lines are 400",
        arguments: [
            "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", " GET / HTTP/1.1\r\n\r\n", "GET /\r\n\r\n", "GET / http/1.1\r\n\r\n",
            "GET / HTTP/1.1\n\r\n", "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", "GET a HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n", "GET / HTTP/1.10\r\n\r\n", "GET / HTTP/11\r\n\r\n", "GET\t/ HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\rX\r\n\r\n",
        ])
    func malformed(_ text: String) {
        #expect(ParserSupport.status(ParserSupport.parse(text)) == 400)
    }

    @Test("unsupported versions are 505", arguments: ["HTTP/2.0", "HTTP/0.9", "HTTP/1.2"])
    func versions(_ version: String) {
        #expect(ParserSupport.status(ParserSupport.parse("GET / \(version)\r\nHost: h\r\n\r\n")) == 505)
    }

    @Test("a request line over 8 KiB is 414, even before its end arrives")
    func tooLong() {
        let target = "/" + String(repeating: "a", count: 8 * 1024)
        #expect(ParserSupport.status(ParserSupport.parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")) == 414)
        #expect(ParserSupport.status(ParserSupport.parse("GET \(target)")) == 414)
        let fits = "/" + String(repeating: "a", count: 8 * 1024 - 14)
        #expect(ParserSupport.request(ParserSupport.parse("GET \(fits) HTTP/1.1\r\nHost: h\r\n\r\n")) != nil)
    }

    @Test("a partial request line is incomplete")
    func partial() {
        for text in ["", "G", "GET / HT", "GET / HTTP/1.1\r", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: h\r\n\r"] {
            #expect(ParserSupport.isIncomplete(ParserSupport.parse(text)), "\(text.debugDescription)")
        }
    }
}
