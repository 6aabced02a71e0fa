import HTTP
import Testing

/// The chunked transfer coding: sizes, extensions, trailers, framing errors and limits.
@Suite("Chunked bodies")
struct ChunkedTests {
    private static let head = "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test("chunks with extensions, uppercase hex and trailers decode")
    func decodes() throws {
        let body = "5;name=value\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n"
        let request = try #require(ParserSupport.request(ParserSupport.parse(Self.head + body)))
        #expect(String(decoding: request.body, as: UTF8.self) == "hello, world!!!")
    }

    @Test("an empty chunked body and leading zeros decode")
    func emptyAndZeros() throws {
        #expect(ParserSupport.request(ParserSupport.parse(Self.head + "0\r\n\r\n"))?.body == [])
        #expect(ParserSupport.request(ParserSupport.parse(Self.head + "0003\r\nabc\r\n000\r\n\r\n"))?.body == Array("abc".utf8))
    }

    @Test(
        "broken chunked framing is 400",
        arguments: [
            "x\r\nabc\r\n0\r\n\r\n", "3\r\nabcd\r\n0\r\n\r\n", "3\r\nabc0\r\n\r\n", "3\nabc\r\n0\r\n\r\n", "-3\r\nabc\r\n0\r\n\r\n",
            "3 x\r\nabc\r\n0\r\n\r\n", "\r\nabc\r\n0\r\n\r\n", "3\r\nabc\r\n0\r\nBad Trailer\r\n\r\n", "0x3\r\nabc\r\n0\r\n\r\n",
            "3;\u{1}\r\nabc\r\n0\r\n\r\n",
        ])
    func broken(_ body: String) {
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + body)) == 400, "\(body.debugDescription)")
    }

    @Test("garbage where a size belongs is refused before the line ends")
    func earlyGarbage() {
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + "zz")) == 400)
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + "3\r\nabcX")) == 400)
    }

    @Test("chunks over the body limit are 413, even when the size alone says so")
    func limit() {
        let limits = HTTPLimits(body: 8)
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + "5\r\nhello\r\n4\r\nabcd\r\n0\r\n\r\n", limits: limits)) == 413)
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + "FFFFFFFFFFFFFFFFFFFF\r\n", limits: limits)) == 413)
        #expect(ParserSupport.request(ParserSupport.parse(Self.head + "4\r\nabcd\r\n4\r\nefgh\r\n0\r\n\r\n", limits: limits)) != nil)
    }

    @Test("a chunk-size line over the limit is 400")
    func longSizeLine() {
        let extensionText = ";" + String(repeating: "e", count: 5000)
        #expect(ParserSupport.status(ParserSupport.parse(Self.head + "3" + extensionText)) == 400)
    }

    @Test("every strict prefix of a chunked request is incomplete")
    func prefixes() {
        let full = Array((Self.head + "5;x=y\r\nhello\r\n0\r\nT: v\r\n\r\n").utf8)
        for cut in 0..<full.count {
            #expect(ParserSupport.isIncomplete(ParserSupport.parse(bytes: Array(full[..<cut]))), "cut at \(cut)")
        }
        #expect(ParserSupport.request(ParserSupport.parse(bytes: full)) != nil)
    }
}
