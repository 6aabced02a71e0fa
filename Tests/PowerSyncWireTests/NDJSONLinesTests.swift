import PowerSyncWire
import Testing

@Suite("NDJSON line splitting")
struct NDJSONLinesTests {
    private func texts(_ body: String, ended: Bool) -> ([String], NDJSONLines.Cut?) {
        let bytes = Array(body.utf8)
        let split = NDJSONLines(bytes, ended: ended)
        return (split.lines.map { String(decoding: bytes[$0], as: UTF8.self) }, split.cut)
    }

    @Test("lines end at LF; a body that ended keeps a last line without its LF")
    func lfLines() {
        #expect(texts("{\"a\":1}\n{\"b\":2}\n", ended: true) == (["{\"a\":1}", "{\"b\":2}"], nil))
        #expect(texts("{\"a\":1}\n{\"b\":2}", ended: true) == (["{\"a\":1}", "{\"b\":2}"], nil))
        #expect(texts("", ended: true) == ([], nil))
    }

    @Test("CRLF ends a line without its CR; a lone CR inside a line stays")
    func crlf() {
        #expect(texts("{\"a\":1}\r\n{\"b\":2}\r\n", ended: true) == (["{\"a\":1}", "{\"b\":2}"], nil))
        #expect(texts("{\"a\":\"x\ry\"}\n", ended: true) == (["{\"a\":\"x\ry\"}"], nil))
        #expect(texts("{\"a\":1}\r\n{\"b\":2}\r", ended: true) == (["{\"a\":1}", "{\"b\":2}"], nil))
    }

    @Test("blank lines, CRLF blanks included, are no lines and do not shift the numbering")
    func blanks() {
        #expect(texts("\n{\"a\":1}\n\r\n \t\n{\"b\":2}\n\n", ended: true) == (["{\"a\":1}", "{\"b\":2}"], nil))
    }

    @Test("a body cut mid-line keeps its whole lines and names the cut line and its dropped bytes")
    func cutMidLine() {
        let (lines, cut) = texts("{\"a\":1}\n{\"b\":2}\n{\"checkpoint_comp", ended: false)
        #expect(lines == ["{\"a\":1}", "{\"b\":2}"])
        #expect(cut == NDJSONLines.Cut(droppedBytes: 17, line: 3))
        #expect(texts("{\"a\"", ended: false) == ([], NDJSONLines.Cut(droppedBytes: 4, line: 1)))
    }

    @Test("a body cut right after an LF (or after a CR of a CRLF) loses no line")
    func cutAtBoundary() {
        #expect(texts("{\"a\":1}\n", ended: false) == (["{\"a\":1}"], nil))
        let (lines, cut) = texts("{\"a\":1}\r\n{\"b\":2}\r", ended: false)
        #expect(lines == ["{\"a\":1}"])
        #expect(cut == NDJSONLines.Cut(droppedBytes: 8, line: 2))
    }

    @Test("ranges are offsets from the start of the bytes given, also for a slice that does not start at 0")
    func slices() {
        let bytes = Array("xx{\"a\":1}\n{\"b\":2}\n".utf8)
        let slice = bytes[2...]
        let split = NDJSONLines(slice, ended: true)
        #expect(split.lines == [0..<7, 8..<15])
    }
}
