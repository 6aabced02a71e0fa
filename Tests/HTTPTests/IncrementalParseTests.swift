import HTTP
import Testing

/// A request parsed as it arrives, with the progress a connection keeps between reads, comes to
/// the same outcome as one parse of the whole bytes, and costs one pass over them.
@Suite("Incremental parsing")
struct IncrementalParseTests {
    private static let chunkedHead = "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"

    private static let samples = [
        chunkedHead + "5;name=value\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n",
        chunkedHead + "0003\r\nabc\r\n000\r\n\r\n",
        chunkedHead + "1\r\na\r\n1\r\nb\r\n1\r\nc\r\n0\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n",
        "\r\n\r\nPOST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello",
        "GET /x?y=z HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        chunkedHead + "3\r\nabcd\r\n0\r\n\r\n",
        chunkedHead + "3\r\nabc\r\n0\r\nBad Trailer\r\n\r\n",
        chunkedHead + "zz",
    ]

    /// Feeds `bytes` in pieces cut at `cuts`, keeping one progress; returns the first outcome that
    /// is not incomplete (or the last one) and the progress's work count.
    private static func feed(
        _ bytes: [UInt8], cuts: [Int], parser: HTTPRequestParser = HTTPRequestParser()
    ) -> (outcome: HTTPRequestParser.Outcome, examined: Int) {
        var progress = HTTPParseProgress()
        var outcome = HTTPRequestParser.Outcome.incomplete(expectsContinue: false)
        for end in cuts + [bytes.count] where end > 0 {
            outcome = parser.parse(bytes[..<end], resuming: &progress)
            // Each prefix on its own parses to the same outcome as the resumed parse of it.
            #expect(outcome == parser.parse(bytes[..<end]), "prefix of \(end) bytes")
            if case .incomplete = outcome { continue }
            break
        }
        return (outcome, progress.bytesExamined)
    }

    @Test("a request fed one byte at a time parses to what one parse of the whole gives")
    func oneByteAtATime() {
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            let (outcome, _) = Self.feed(bytes, cuts: Array(1..<bytes.count))
            #expect(outcome == HTTPRequestParser().parse(bytes[...]), "\(sample.debugDescription)")
        }
    }

    @Test("a request fed in random splits parses to what one parse of the whole gives")
    func randomSplits() {
        var generator = SeededGenerator(state: 0x5EED_C4A7)
        for round in 0..<400 {
            let bytes = Array(Self.samples[round % Self.samples.count].utf8)
            let cuts = (0..<Int.random(in: 1...6, using: &generator)).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            let (outcome, _) = Self.feed(bytes, cuts: cuts.sorted())
            #expect(outcome == HTTPRequestParser().parse(bytes[...]), "round \(round), cuts \(cuts.sorted())")
        }
    }

    @Test("mutated requests fed in random splits come to the one-shot outcome, refusals included")
    func mutatedSplits() {
        var generator = SeededGenerator(state: 0xF00D_5EED)
        let parser = HTTPRequestParser(limits: HTTPLimits(requestLine: 64, headerBlock: 128, body: 32, chunkLine: 16))
        for round in 0..<3000 {
            var bytes = Array(Self.samples[round % Self.samples.count].utf8)
            for _ in 0..<Int.random(in: 0...3, using: &generator) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                let byte = Array("\r\n :;0aF\t/x".utf8).randomElement(using: &generator) ?? 0
                if Bool.random(using: &generator) { bytes[position] = byte } else { bytes.insert(byte, at: position) }
            }
            let cuts = (0..<Int.random(in: 1...8, using: &generator)).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            let (outcome, _) = Self.feed(bytes, cuts: cuts.sorted(), parser: parser)
            let whole = parser.parse(bytes[...])
            if case .failed(let early) = outcome, case .failed(let late) = whole {
                // A prefix may be refused before the whole is read, on an earlier check of the
                // same kind (a size that is not hex before the line is too long): the same status.
                #expect(early.status == late.status, "round \(round): \(early) / \(late)")
            } else {
                #expect(outcome == whole, "round \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test("a body of one-byte chunks, fed one byte at a time, costs one pass over its bytes")
    func linearWork() throws {
        let chunks = 4096
        let text = Self.chunkedHead + String(repeating: "1\r\nx\r\n", count: chunks) + "0\r\n\r\n"
        let bytes = Array(text.utf8)
        var progress = HTTPParseProgress()
        let parser = HTTPRequestParser(limits: HTTPLimits(body: 1 << 20))
        var outcome = HTTPRequestParser.Outcome.incomplete(expectsContinue: false)
        for end in 1...bytes.count {
            outcome = parser.parse(bytes[..<end], resuming: &progress)
            if case .complete = outcome { break }
            #expect(outcome == .incomplete(expectsContinue: false))
        }
        let request = try #require(ParserSupport.request(outcome))
        #expect(request.body == Array(repeating: UInt8(ascii: "x"), count: chunks))
        // Every byte is looked at a bounded number of times (a line is scanned, then parsed);
        // parsing each read from the request's first byte again would look at ~1.2e9.
        #expect(progress.bytesExamined <= 3 * bytes.count, "\(progress.bytesExamined) bytes examined for \(bytes.count)")
        var whole = HTTPParseProgress()
        _ = parser.parse(bytes[...], resuming: &whole)
        #expect(progress.bytesExamined <= 2 * whole.bytesExamined)
    }

    @Test("the decoded data of a chunked body in progress is counted as held")
    func heldBody() {
        let bytes = Array((Self.chunkedHead + "5\r\nhello\r\n3\r\nab").utf8)
        var progress = HTTPParseProgress()
        #expect(HTTPRequestParser().parse(bytes[...], resuming: &progress) == .incomplete(expectsContinue: false))
        #expect(progress.heldBodyBytes == 7)
        let done = Array((Self.chunkedHead + "5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n").utf8)
        #expect(ParserSupport.request(HTTPRequestParser().parse(done[...], resuming: &progress))?.body == Array("helloabc".utf8))
        #expect(progress.heldBodyBytes == 0)
    }
}
