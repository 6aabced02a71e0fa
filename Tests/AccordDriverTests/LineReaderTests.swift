import AccordDriver
import Testing

@Suite("DriverLineReader")
struct LineReaderTests {
    func lines(_ chunks: [String], limit: Int = 8) async -> [DriverLineReader<DriverPipe.Reader>.Line] {
        let pipe = DriverPipe()
        for chunk in chunks { pipe.send(Array(chunk.utf8)) }
        pipe.finish()
        var reader = DriverLineReader(pipe.reader(), maximumLength: limit)
        var result: [DriverLineReader<DriverPipe.Reader>.Line] = []
        while let line = await reader.next() { result.append(line) }
        return result
    }

    @Test("lines split across chunks, byte by byte, with CRLF and an unterminated tail")
    func chunked() async {
        let text = "ab\r\ncd\n\nefgh"
        let expected: [DriverLineReader<DriverPipe.Reader>.Line] = [
            .line(Array("ab".utf8)), .line(Array("cd".utf8)), .line([]), .line(Array("efgh".utf8)),
        ]
        #expect(await lines([text]) == expected)
        #expect(await lines(text.map { String($0) }) == expected)
    }

    @Test("an overlong line is reported once with its length and reading goes on")
    func overlong() async {
        #expect(await lines(["0123456789ab\nok\n"]) == [.tooLong(12), .line(Array("ok".utf8))])
        #expect(await lines(["01234", "56789", "abcde", "f\nok"]) == [.tooLong(16), .line(Array("ok".utf8))])
        #expect(await lines(["01234", "56789", "abcde"]) == [.tooLong(15)])
    }
}
