import HTTP
import Testing

/// Header fields: syntax, case-insensitive names, Host, framing headers and the 16 KiB limit.
@Suite("Header parsing")
struct HeaderTests {
    @Test("names are case-insensitive and values are trimmed")
    func caseInsensitive() throws {
        let text = "POST /x HTTP/1.1\r\nhOsT: h\r\nX-Thing:  \tv a l \t\r\ncontent-length: 0\r\n\r\n"
        let request = try #require(ParserSupport.request(ParserSupport.parse(text)))
        #expect(request.headers["X-THING"] == "v a l")
        #expect(request.headers["host"] == "h")
        #expect(request.headers.values(for: "x-thing") == ["v a l"])
    }

    @Test(
        "malformed header lines are 400",
        arguments: [
            "Host: h\r\nBad Name: v\r\n", "Host: h\r\nNoColon\r\n", "Host: h\r\n folded\r\n", "Host: h\r\n: empty\r\n",
            "Host: h\r\nX: a\u{0}b\r\n", "Host: h\r\nX : v\r\n", "Host: h\r\nX: v\n", "Host: h\r\nX: a\rb\r\n",
        ])
    func malformed(_ fields: String) {
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\n\(fields)\r\n")) == 400)
    }

    @Test("HTTP/1.1 needs exactly one Host")
    func host() {
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")) == 400)
    }

    @Test("a repeated Authorization is 400, whatever the case of its names, while one is kept as sent")
    func repeatedAuthorization() throws {
        for fields in ["Authorization: Bearer a\r\nAuthorization: Bearer b\r\n", "authorization: x\r\nAUTHORIZATION: x\r\n"] {
            let outcome = ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n")
            #expect(ParserSupport.status(outcome) == 400, "\(fields)")
            if case .failed(let error) = outcome { #expect(error.detail == "more than one Authorization header") }
        }
        // Refused once the head is complete, before a body it announces has arrived.
        let early = ParserSupport.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\nAuthorization: a\r\nAuthorization: b\r\n\r\n")
        #expect(ParserSupport.status(early) == 400)
        let one = try #require(ParserSupport.request(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer a\r\n\r\n")))
        #expect(one.headers["Authorization"] == "Bearer a")
        #expect(
            ParserSupport.request(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\nProxy-Authorization: a\r\nAuthorization: b\r\n\r\n"))
                != nil)
    }

    @Test("a header block over 16 KiB is 431, complete or not")
    func blockLimit() {
        let big = "X-Big: " + String(repeating: "b", count: 16 * 1024) + "\r\n"
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\n\(big)\r\n")) == 431)
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\n\(big)")) == 431)
        let many = (0..<101).map { "X-\($0): v\r\n" }.joined()
        #expect(ParserSupport.status(ParserSupport.parse("GET / HTTP/1.1\r\nHost: h\r\n\(many)\r\n")) == 431)
    }

    @Test("Content-Length must be one decimal value within the body limit")
    func contentLength() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\n"
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: -1\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 1x\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: +1\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 1, 1\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 99999999999999999999\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab")) == 400)
        #expect(
            ParserSupport.request(ParserSupport.parse(head + "Content-Length: 2\r\nContent-Length: 2\r\n\r\nab"))?.body == Array("ab".utf8))
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 1048577\r\n\r\n")) == 413)
        let small = HTTPLimits(body: 4)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Content-Length: 5\r\n\r\nabcde", limits: small)) == 413)
        #expect(ParserSupport.request(ParserSupport.parse(head + "Content-Length: 4\r\n\r\nabcd", limits: small)) != nil)
    }

    @Test("a body waits for all its bytes")
    func partialBody() {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabc"
        #expect(ParserSupport.parse(text) == .incomplete(expectsContinue: false))
        let expecting = "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
        #expect(ParserSupport.parse(expecting) == .incomplete(expectsContinue: true))
        #expect(ParserSupport.status(ParserSupport.parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: later\r\n\r\n")) == 417)
    }

    @Test("Transfer-Encoding with Content-Length, on HTTP/1.0, or not chunked is refused")
    func transferEncoding() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\n"
        #expect(ParserSupport.status(ParserSupport.parse(head + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Transfer-Encoding: gzip\r\n\r\n")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(head + "Transfer-Encoding: gzip, chunked\r\n\r\n")) == 501)
        #expect(ParserSupport.request(ParserSupport.parse(head + "Transfer-Encoding: Chunked\r\n\r\n0\r\n\r\n")) != nil)
    }

    @Test("pipelined requests parse one after another with their consumed lengths")
    func pipelining() throws {
        let first = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
        let second = "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"
        let third = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
        let bytes = Array((first + second + third + "GET /d").utf8)
        var offset = 0
        var paths: [String] = []
        let parser = HTTPRequestParser()
        while case .complete(let request, let consumed) = parser.parse(bytes[offset...]) {
            paths.append(request.path)
            offset += consumed
        }
        #expect(paths == ["/a", "/b", "/c"])
        #expect(offset == bytes.count - 6)
        #expect(ParserSupport.isIncomplete(parser.parse(bytes[offset...])))
    }
}
