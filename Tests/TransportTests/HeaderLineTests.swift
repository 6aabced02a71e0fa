import Testing

@testable import Transport

/// A sink that keeps the head it was given.
final class HeadSink: StreamingResponseSink {
    var heads: [(status: Int, reason: String, headers: [(name: String, value: String)])] = []
    var octets: [[Int: [UInt8]]] = []
    var accept = true

    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)]) -> Bool {
        heads.append((status, reason, headers))
        return accept
    }

    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)], octets: [Int: [UInt8]]) -> Bool {
        self.octets.append(octets)
        return receiveHead(status: status, reason: reason, headers: headers)
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
}

@Suite("Upstream header lines parsed on bytes")
struct HeaderLineTests {
    /// Feeds raw header lines (each as libcurl hands them, line end included) and returns the heads delivered.
    static func feed(_ lines: [[UInt8]], sink: HeadSink = HeadSink()) -> HeadSink {
        let state = TransferState(sink: sink)
        for line in lines { _ = line.withUnsafeBufferPointer { state.headerLine($0) } }
        return sink
    }

    static func feed(_ lines: [String]) -> HeadSink { feed(lines.map { Array($0.utf8) }) }

    static func pairs(_ headers: [(name: String, value: String)]) -> [String] { headers.map { "\($0.name)=\($0.value)" } }

    @Test("status lines: with and without reason, HTTP/2, extra spaces, malformed codes")
    func statusLines() {
        let cases: [(String, Int, String)] = [
            ("HTTP/1.1 200 OK\r\n", 200, "OK"), ("HTTP/1.1 204\r\n", 204, ""), ("HTTP/2 200\r\n", 200, ""), ("HTTP/2 404 \r\n", 404, ""),
            ("HTTP/1.1 500 Internal Server Error\r\n", 500, "Internal Server Error"),
            ("HTTP/1.0 301 Moved  Permanently\n", 301, "Moved  Permanently"),
            ("HTTP/1.1  201  Created\r\n", 201, "Created"), ("HTTP/1.1 418 I'm a teapot é\r\n", 418, "I'm a teapot é"),
        ]
        for (line, status, reason) in cases {
            let sink = Self.feed([line, "\r\n"])
            #expect(sink.heads.count == 1, "\(line)")
            #expect(
                sink.heads.first?.status == status && sink.heads.first?.reason == reason,
                "\(line) → \(String(describing: sink.heads.first))")
        }
        for line in ["HTTP/1.1 2000 OK\r\n", "HTTP/1.1 20 OK\r\n", "HTTP/1.1 abc\r\n", "HTTP/1.1\r\n", "HTTP/1.1 200\tOK\r\n"] {
            #expect(Array(line.utf8.dropLast(2)).withUnsafeBufferPointer { TransferState.statusLine($0) } == (0, ""), "\(line)")
            let sink = Self.feed([line, "\r\n"])
            #expect(sink.heads.isEmpty, "a status 0 is not a final head: \(line)")
        }
    }

    @Test("interim 100 Continue heads are skipped; only the final head's fields are kept")
    func interim() {
        let sink = Self.feed([
            "HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "A: b\r\n", "\r\n", "Trailer: t\r\n", "\r\n",
        ])
        #expect(sink.heads.count == 1)
        #expect(sink.heads.first?.status == 200)
        #expect(Self.pairs(sink.heads.first?.headers ?? []) == ["A=b"])
        let switching = Self.feed(["HTTP/1.1 101 Switching Protocols\r\n", "Upgrade: websocket\r\n", "\r\n"])
        #expect(switching.heads.first?.status == 101)
    }

    @Test("field values: surrounding spaces and tabs trimmed, inner ones kept, folded lines joined by one space")
    func fields() {
        let sink = Self.feed([
            "HTTP/1.1 200 OK\r\n", "A:b\r\n", "B: \t spaced  out \t \r\n", "C:\r\n", "D:   \r\n", "E: one\r\n", " \t two \r\n",
            "\tthree\r\n",
            "no colon here\r\n", "F: a:b: c\r\n", "  G : x\r\n", "H;x: y\n", "\r\n",
        ])
        #expect(
            Self.pairs(sink.heads.first?.headers ?? []) == [
                "A=b", "B=spaced  out", "C=", "D=", "E=one two three", "F=a:b: c G : x", "H;x=y",
            ])
    }

    @Test("a folded line before any field is ignored, not taken as a field")
    func foldBeforeFields() {
        let sink = Self.feed(["HTTP/1.1 200 OK\r\n", " X: y\r\n", "Z: 1\r\n", "\r\n"])
        #expect(Self.pairs(sink.heads.first?.headers ?? []) == ["Z=1"])
    }

    /// Issue 35: values that are not UTF-8 were decoded with U+FFFD for each bad byte, and the
    /// proxy relayed the U+FFFDs; RFC 9110 §5.5 has a recipient treat obs-text as opaque.
    @Test("UTF-8 values decode as UTF-8; a value that is not UTF-8 reads as ISO-8859-1 and its bytes are handed on, folded lines too")
    func nonASCII() {
        let lines: [[UInt8]] = [
            Array("HTTP/1.1 200 OK\r\n".utf8), Array("X-Name: café 日本 😀 \r\n".utf8),
            Array("X-Raw: a".utf8) + [0xFF, 0xC3] + Array(" b\t\r\n".utf8),
            Array("X-Lead:".utf8) + [0x80] + Array("\r\n".utf8),
            Array("X-Fold: caf".utf8) + [0xE9] + Array("\r\n".utf8), Array(" more\r\n".utf8), Array("\r\n".utf8),
        ]
        let sink = Self.feed(lines)
        #expect(
            Self.pairs(sink.heads.first?.headers ?? []) == [
                "X-Name=café 日本 😀", "X-Raw=a\u{FF}\u{C3} b", "X-Lead=\u{80}", "X-Fold=caf\u{E9} more",
            ])
        let raw: [UInt8] = [0x61, 0xFF, 0xC3, 0x20, 0x62]
        let folded: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x6D, 0x6F, 0x72, 0x65]
        let expected: [Int: [UInt8]] = [1: raw, 2: [0x80], 3: folded]
        #expect(sink.octets.first == expected)
    }

    @Test("trimmedBytes() and a sink that refuses the head stops the transfer")
    func trimmedAndRefusal() {
        let text = Array(" \t a b \t ".utf8)
        #expect(text.withUnsafeBufferPointer { Array(TransferState.trimmedBytes($0, from: 0)) } == Array("a b".utf8))
        #expect(text.withUnsafeBufferPointer { Array(TransferState.trimmedBytes($0, from: 5)) } == Array("b".utf8))
        #expect(text.withUnsafeBufferPointer { TransferState.trimmedBytes($0, from: text.count) }.isEmpty)
        let sink = HeadSink()
        sink.accept = false
        let state = TransferState(sink: sink)
        for line in ["HTTP/1.1 200 OK\r\n", "A: b\r\n"] { #expect(Array(line.utf8).withUnsafeBufferPointer { state.headerLine($0) }) }
        #expect(!Array("\r\n".utf8).withUnsafeBufferPointer { state.headerLine($0) })
        #expect(state.stopped && state.finalStatus == 200)
    }
}
