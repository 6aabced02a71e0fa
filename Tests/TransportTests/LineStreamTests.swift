import AccordTestSupport
import Foundation
import Testing
import Transport

/// A Python peer that answers one request with NDJSON written in pieces (a line split across
/// writes, a last line without its newline; or two whole lines in one write), then either closes
/// or stays silent.
final class NDJSONPeer {
    let process = ChildProcess()
    let port: Int

    static let script = #"""
        import socket, sys, time, signal
        signal.alarm(120)  # a safety net: the test stops it by its pid (SIGTERM) when done
        server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(1)
        print(server.getsockname()[1], flush=True)
        conn, _ = server.accept()
        data = b""
        while b"\r\n\r\n" not in data: data += conn.recv(4096)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n")
        pieces = [b'{"a":1}\n{"b":2}\n'] if sys.argv[1] == "lines-then-silent" else [b'{"a":1}\n{"b":', b'2}\n', b'{"c":3}']
        for piece in pieces:
            conn.sendall(piece); time.sleep(0.05)
        if sys.argv[1] != "close": time.sleep(20)
        conn.close()
        """#

    init(_ mode: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, mode]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

@Suite("NDJSON line streams against a Python peer")
struct LineStreamTests {
    static func read(_ stream: LineStream) async -> [String] {
        var lines: [String] = []
        for await line in stream.lines { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test("lines arrive whole however the peer splits its writes, the last one without its newline too")
    func splitsLines() async throws {
        let peer = try NDJSONPeer("close")
        let stream = LineStream("POST", "http://127.0.0.1:\(peer.port)/sync/stream", body: Array("{}".utf8))
        #expect(await Self.read(stream) == [#"{"a":1}"#, #"{"b":2}"#, #"{"c":3}"#])
        #expect(stream.ending?.status == 200)
        #expect(stream.ending?.error == nil)
    }

    @Test("a peer that stays open and silent ends the stream after the silence, as a silence")
    func silenceEnds() async throws {
        let peer = try NDJSONPeer("silent")
        let stream = LineStream("POST", "http://127.0.0.1:\(peer.port)/sync/stream", body: Array("{}".utf8), silence: 1)
        #expect(await Self.read(stream).count == 3)
        #expect(stream.ending?.error?.isSilence == true, "\(String(describing: stream.ending?.error))")
    }

    @Test("close() ends a silent transfer at libcurl's next progress call, not at the peer's next bytes or the silence")
    func closeEndsASilentTransfer() async throws {
        // Two whole lines, then nothing: once both are read, no byte is left to arrive.
        let peer = try NDJSONPeer("lines-then-silent")
        let stream = LineStream("POST", "http://127.0.0.1:\(peer.port)/sync/stream", body: Array("{}".utf8), silence: 30)
        var lines = stream.lines.makeAsyncIterator()
        #expect(await lines.next() != nil)
        #expect(await lines.next() != nil)
        let clock = ContinuousClock()
        let closed = clock.now
        stream.close()
        while await lines.next() != nil {}
        // The peer stays silent for 20 s and the silence limit is 30 s: only the abort ends it sooner.
        #expect(clock.now - closed < .seconds(10))
        #expect(stream.ending?.error == nil, "\(String(describing: stream.ending?.error))")
    }
}
