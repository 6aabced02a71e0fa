import Corpus
import Testing

/// `RecordingReader`'s cap on one line: a line of exactly `maxLine` bytes is read, one byte more
/// is refused naming its line, however the bytes are chunked, and before the line is held whole.
@Suite("Recording reader: the line cap")
struct RecordingLineCapTests {
    static let headerLine = Array(RecordingReaderTests.line(RecordingReaderTests.header.json).utf8)
    /// Exchange `number`, padded to be longer than the header line.
    static func exchangeLine(_ number: Int) -> [UInt8] {
        let exchange = RecordedExchange(
            number: number, rpc: "pull", request: ["pad": .string(String(repeating: "p", count: 2000))], response: ["ok": true])
        return Array(RecordingReaderTests.line(exchange.json).utf8)
    }

    /// Feeds `bytes` in chunks of `size` to a reader with the cap; the exchanges read or the error.
    static func read(_ bytes: [UInt8], maxLine: Int, chunk size: Int) -> Result<Int, CorpusError> {
        var reader = RecordingReader(file: RecordingReaderTests.file, maxLine: maxLine)
        var count = 0
        let take: (RecordingReader.Item) throws(CorpusError) -> Void = { if case .exchange = $0 { count += 1 } }
        do throws(CorpusError) {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + size)
                try bytes.withUnsafeBufferPointer { all throws(CorpusError) in
                    try reader.feed(UnsafeBufferPointer(rebasing: all[start..<end]), take)
                }
                start = end
            }
            try reader.finish(take)
            return .success(count)
        } catch {
            return .failure(error)
        }
    }

    @Test("a line of exactly the cap is read and one byte over is refused on its line, in any chunking", arguments: [1, 7, 64, 1 << 16])
    func boundary(chunk: Int) throws {
        let first = Self.exchangeLine(1)
        let second = Self.exchangeLine(2).dropLast() + [0x20, 0x0A]
        let bytes = Self.headerLine + first + second
        let length = second.count - 1
        #expect(first.count - 1 < length && Self.headerLine.count - 1 < length)
        #expect(try Self.read(bytes, maxLine: length, chunk: chunk).get() == 2)
        let refused = Self.read(bytes, maxLine: length - 1, chunk: chunk)
        guard case .failure(let error) = refused else {
            Issue.record("read past the cap: \(refused)")
            return
        }
        #expect(error.line == 3)
        #expect(error.description == "session.jsonl:3: line longer than \(length - 1) bytes (the --max-line cap); not read")
    }

    @Test("a torn last line over the cap is refused, not reported as torn")
    func tornOverCap() {
        let bytes = Self.headerLine + [UInt8](repeating: 0x61, count: 5000)
        guard case .failure(let error) = Self.read(bytes, maxLine: 4096, chunk: 1000) else {
            Issue.record("an endless last line was accepted")
            return
        }
        #expect(error.line == 2)
    }

    @Test("the default cap is 128 MiB")
    func defaultCap() {
        #expect(RecordingReader.defaultMaxLine == 128 * 1024 * 1024)
        #expect(RecordingReader(file: "f").maxLine == RecordingReader.defaultMaxLine)
    }
}
