import HTTP
import Testing

/// The one response head encoder and its header policy.
@Suite("Response head encoder")
struct ResponseHeadTests {
    private static func text(
        _ head: HTTPResponseHead, _ framing: HTTPResponseHead.BodyFraming, keepAlive: Bool = true,
        version: HTTPVersion = .http11, identity: HTTPResponseHead.Identity
    ) -> String {
        String(decoding: head.encoded(version: version, framing: framing, keepAlive: keepAlive, identity: identity), as: UTF8.self)
    }

    @Test("an answer made here carries accord's Date and Server; framing fields given are the encoder's")
    func accordIdentity() {
        let head = HTTPResponseHead(
            status: 200, headers: ["Date": "old", "Server": "x", "Keep-Alive": "5", "Transfer-Encoding": "chunked", "X": "1"])
        #expect(
            Self.text(head, .length(2), identity: .accord(date: "D"))
                == "HTTP/1.1 200 OK\r\nX: 1\r\nDate: D\r\nServer: accord\r\nContent-Length: 2\r\n\r\n")
    }

    @Test("an answer made elsewhere keeps its Date and Server; chunked to 1.1, close-delimited to 1.0")
    func givenIdentity() {
        let head = HTTPResponseHead(status: 201, reason: "Made", headers: ["Date": "then", "Server": "up"])
        #expect(
            Self.text(head, .chunked, identity: .given)
                == "HTTP/1.1 201 Made\r\nDate: then\r\nServer: up\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(head.framing(contentLength: nil, version: .http10, omitBody: false) == .close)
        #expect(Self.text(head, .close, version: .http10, identity: .given).hasSuffix("Server: up\r\nConnection: close\r\n\r\n"))
    }

    @Test("framing: none for bodyless statuses and for HEAD without a length, the length when known")
    func framing() {
        #expect(HTTPResponseHead(status: 204, headers: [:]).framing(contentLength: 5, version: .http11, omitBody: false) == .none)
        #expect(HTTPResponseHead(status: 200, headers: [:]).framing(contentLength: nil, version: .http11, omitBody: true) == .none)
        #expect(HTTPResponseHead(status: 200, headers: [:]).framing(contentLength: 7, version: .http11, omitBody: true) == .length(7))
        #expect(HTTPResponseHead.isBodyless(304) && HTTPResponseHead.isBodyless(101) && !HTTPResponseHead.isBodyless(200))
    }

    @Test("a relay drops hop-by-hop fields and those Connection names, keeping the order of the rest")
    func forwardable() {
        let fields: [(name: String, value: String)] = [
            ("A", "1"), ("Connection", "close, X-Secret"), ("x-secret", "s"), ("Keep-Alive", "5"), ("TE", "trailers"), ("B", "2"),
        ]
        let forwarded = HTTPHeaders.forwardable(fields)
        #expect(forwarded.map(\.name) == ["A", "B"])
        #expect(HTTPHeaders.isHopByHop("Upgrade") && !HTTPHeaders.isHopByHop("Content-Type"))
    }

    @Test("the names Connection lists are read once, lowercased and trimmed, and a field is forwarded by them")
    func connectionNamed() {
        let fields: [(name: String, value: String)] = [("connection", " Close ,X-Secret"), ("A", "1"), ("CONNECTION", "x-other")]
        let named = HTTPHeaders.connectionNamed(fields)
        #expect(named == ["close", "x-secret", "x-other"])
        #expect(HTTPHeaders.connectionNamed([(name: "A", value: "1")]).isEmpty)
        #expect(!HTTPHeaders.isForwarded("X-SECRET", connectionNamed: named))
        #expect(!HTTPHeaders.isForwarded("Transfer-Encoding", connectionNamed: []))
        #expect(HTTPHeaders.isForwarded("Content-Type", connectionNamed: named))
    }

    @Test("a length and a date are written as the interpolated lines were, byte for byte")
    func piecesAsLines() {
        let head = HTTPResponseHead(status: 200, headers: [:])
        #expect(
            Self.text(head, .length(2048), identity: .accord(date: "Wed, 02 Dec 2026 03:00:00 GMT"))
                == "HTTP/1.1 200 OK\r\nDate: Wed, 02 Dec 2026 03:00:00 GMT\r\nServer: accord\r\nContent-Length: 2048\r\n\r\n")
        let given = Self.text(head, .none, identity: .given)
        #expect(given.hasPrefix("HTTP/1.1 200 OK\r\nDate: ") && given.hasSuffix(" GMT\r\n\r\n"))
    }

    @Test("isHopByHop says true for exactly the names of hopByHop, in any case")
    func hopByHopByLength() {
        for name in HTTPHeaders.hopByHop {
            #expect(HTTPHeaders.isHopByHop(name) && HTTPHeaders.isHopByHop(name.uppercased()), "\(name)")
        }
        for name in ["Content-Type", "Connections", "TE2", "Trailers", "Proxy-Connectio", "Upgrade-Insecure-Requests", "User-Agent", ""] {
            #expect(!HTTPHeaders.isHopByHop(name), "\(name)")
        }
    }
}
