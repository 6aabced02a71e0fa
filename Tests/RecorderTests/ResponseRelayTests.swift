import HTTP
import Testing

@testable import Recorder

@Suite("Response relay: what reaches the client, what is kept for the recording")
struct ResponseRelayTests {
    /// A relay over an output with no socket, so what it queues stays readable.
    private static func relay(limit: Int = 1 << 20) -> (ResponseRelay, HTTPOutput) {
        let output = HTTPOutput()
        let stream = HTTPResponseStream(output: output, version: .http11, omitBody: false, keepAlive: true)
        return (ResponseRelay(stream: stream, output: output, limit: limit), output)
    }

    @Test("the first-body hook runs once per answer, after the first body bytes were queued and sent")
    func firstBodyHookRunsOnce() throws {
        let (relay, output) = Self.relay()
        var events: [String] = []
        relay.queued = { events.append("queued \(output.count)") }
        relay.firstBodySent = { events.append("first body") }
        #expect(relay.receiveHead(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked")]))
        #expect(relay.awaitingBody())
        #expect(events.count == 1 && !events.contains("first body"))
        for piece in ["{\"seq\":0}\n", "{\"seq\":1}\n", "{\"seq\":2}\n"] {
            let accepted = Array(piece.utf8).withUnsafeBytes { relay.receiveBody($0) }
            #expect(accepted)
        }
        #expect(events.filter { $0 == "first body" }.count == 1)
        let hook = try #require(events.firstIndex(of: "first body"))
        // The hook follows the send of the first piece, and precedes the second piece's.
        #expect(hook == 2)
        #expect(events[1].hasPrefix("queued ") && events[1] != "queued 0")
        #expect(relay.total == 30 && relay.recorded.count == 30)
    }

    @Test("a Content-Length answer runs the first-body hook only when its first piece leaves more to come")
    func contentLengthHook() {
        for (pieces, runs) in [(["0123456789"], 0), (["01234", "56789"], 1)] {
            let (relay, _) = Self.relay()
            var ran = 0
            relay.firstBodySent = { ran += 1 }
            #expect(relay.receiveHead(status: 200, reason: "OK", headers: [("Content-Length", "10")]))
            for piece in pieces {
                let accepted = Array(piece.utf8).withUnsafeBytes { relay.receiveBody($0) }
                #expect(accepted)
            }
            #expect(ran == runs, "\(pieces)")
        }
    }

    @Test("an answer whose body never starts never runs the first-body hook")
    func noBodyNoHook() {
        let (relay, _) = Self.relay()
        var ran = false
        relay.firstBodySent = { ran = true }
        #expect(relay.receiveHead(status: 204, reason: "No Content", headers: []))
        #expect(relay.awaitingBody())
        #expect(!ran)
    }

    @Test("the recorded copy stops at the limit while the client gets every byte")
    func recordedCopyIsCapped() {
        let (relay, output) = Self.relay(limit: 4)
        #expect(relay.receiveHead(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked")]))
        let accepted = Array("0123456789".utf8).withUnsafeBytes { relay.receiveBody($0) }
        #expect(accepted)
        #expect(relay.recorded == Array("0123".utf8))
        #expect(relay.total == 10)
        // Head, then the whole piece as one chunk: "a\r\n0123456789\r\n".
        #expect(output.count > 10 + 4)
    }
}
