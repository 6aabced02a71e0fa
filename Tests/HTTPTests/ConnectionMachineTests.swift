import HTTP
import Testing

/// The connection state machine without a socket: bytes in, actions out.
@Suite("HTTP/1 connection machine")
struct ConnectionMachineTests {
    private static let listener = HTTPEndpoint(host: "127.0.0.1", port: 80)
    private static let peer = HTTPEndpoint(host: "127.0.0.1", port: 5000)

    private static func machine(body: Int = 1024) -> HTTPConnectionMachine {
        HTTPConnectionMachine(limits: HTTPLimits(body: body), listener: listener, peer: peer)
    }

    private static func feed(_ machine: inout HTTPConnectionMachine, _ text: String) {
        machine.receive { $0.append(contentsOf: text.utf8) }
    }

    @Test("no bytes: read more; a request split over two reads is handed out once whole, stamped with both addresses")
    func splitRequest() throws {
        var machine = Self.machine()
        #expect(machine.next() == .readMore)
        Self.feed(&machine, "GET /a HTTP/1.1\r\nHo")
        #expect(machine.next() == .readMore)
        #expect(machine.isPartial)
        Self.feed(&machine, "st: x\r\n\r\n")
        guard case .request(let request) = machine.next() else { return #expect(Bool(false), "no request") }
        #expect(request.path == "/a")
        #expect(request.listener == Self.listener && request.peer == Self.peer)
        #expect(!machine.isPartial && machine.isAnswering)
    }

    @Test("pipelined requests wait behind the one answered, and come in order")
    func pipelining() {
        var machine = Self.machine()
        Self.feed(&machine, "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .request(let first) = machine.next() else { return #expect(Bool(false)) }
        #expect(first.path == "/1")
        #expect(machine.next() == .readMore, "the second waits until the first is answered")
        #expect(machine.isPartial)
        machine.answered(keepAlive: true)
        guard case .request(let second) = machine.next() else { return #expect(Bool(false)) }
        #expect(second.path == "/2")
        machine.answered(keepAlive: false)
        #expect(machine.next() == .close)
    }

    @Test("Expect: 100-continue is invited once, then the body is read")
    func continueOnce() {
        var machine = Self.machine()
        Self.feed(&machine, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        #expect(machine.next() == .sendContinue)
        #expect(machine.next() == .readMore)
        #expect(machine.expectedLength != nil)
        Self.feed(&machine, "abc")
        guard case .request(let request) = machine.next() else { return #expect(Bool(false)) }
        #expect(request.body == Array("abc".utf8))
    }

    @Test("a bad request is refused with its status, and nothing more is parsed")
    func refusal() {
        var machine = Self.machine()
        Self.feed(&machine, "GET / HTTP/1.1\r\n\r\n")
        guard case .refuse(let error) = machine.next() else { return #expect(Bool(false)) }
        #expect(error.status == 400)
        #expect(machine.next() == .close)
        #expect(machine.unread == 0)
    }

    @Test("a head past the limits is refused and the connection ends; end() lets the buffer go")
    func limits() {
        var machine = Self.machine(body: 10)
        Self.feed(&machine, "GET / HTTP/1.1\r\nHost: x\r\n")
        Self.feed(&machine, "X: " + String(repeating: "a", count: machine.maximumBuffered))
        guard case .refuse(let error) = machine.next() else { return #expect(Bool(false)) }
        #expect(error.status == 431)
        #expect(machine.next() == .close)
        var other = Self.machine()
        Self.feed(&other, "GET / HTTP/1.1\r\n")
        other.end()
        #expect(other.unread == 0 && other.next() == .close)
    }
}
