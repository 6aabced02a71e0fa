import Corpus
import Foundation
import JSON
import Testing

/// A small deterministic generator so that "random" chunkings are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What a reader produced for a whole input.
struct ReadResult: Equatable {
    var headers: [RecordingHeader] = []
    var exchanges: [RecordedExchange] = []
    var tornLine: Int?
}

@Suite("Recording reader")
struct RecordingReaderTests {
    static let file = "session.jsonl"

    static let header = RecordingHeader(
        tool: "accord 0.1.0", startedAt: "2025-05-01T12:00:00Z", upstream: "https://example.supabase.co",
        redaction: ["drop_headers": ["authorization", "cookie"], "mask_jwt": true])

    /// Exchanges with every field set; objects use sorted keys so that a parse of the compact
    /// rendering compares equal. `line` is where each lands after the header.
    static let exchanges: [RecordedExchange] = {
        var list: [RecordedExchange] = []
        var pull = RecordedExchange(
            number: 1, rpc: "pull", request: ["client_id": "c1", "cursor": .null, "limit": 100],
            response: ["changes": [], "checkpoint": ["complete": true, "cursor": "0"]])
        pull.atMilliseconds = 12.5
        pull.durationMilliseconds = 3.25
        pull.user = "00000000-0000-4000-8000-a10000000001"
        pull.client = "00000000-0000-4000-8000-c10000000001"
        pull.requestHeaders = ["content-type": "application/json", "prefer": "return=representation"]
        pull.responseHeaders = ["content-type": "application/json; charset=utf-8"]
        list.append(pull)
        var push = RecordedExchange(
            number: 2, rpc: "push",
            request: ["mutations": [["columns": ["title": "a \"quoted\" title ✓\n"], "op": "insert", "pk": "k1"]]],
            response: ["verdicts": [["status": "applied"]]])
        push.atMilliseconds = 40
        push.durationMilliseconds = 0.001
        list.append(push)
        var other = RecordedExchange(number: 3, rpc: "http", request: .null, response: .null, status: 404)
        other.method = "GET"
        other.path = "/rest/v1/unknown?select=*"
        other.atMilliseconds = 1_000_000
        list.append(other)
        for number in 4...12 {
            var extra = RecordedExchange(
                number: number, rpc: number.isMultiple(of: 2) ? "pull" : "push", request: ["n": .number(JSONNumber(number))],
                response: ["ok": true])
            extra.atMilliseconds = Double(number) * 10
            list.append(extra)
        }
        for index in list.indices { list[index].line = index + 2 }
        return list
    }()

    static func line(_ value: JSONValue) -> String { CanonicalJSON.compact(value) + "\n" }

    /// The full recording text: header line then one line per exchange, each ending "\n".
    static let text: String = line(header.json) + exchanges.map { line($0.json) }.joined()

    /// Reads `bytes`, feeding them in chunks of the given sizes (cycled; the last chunk takes the rest).
    static func read(_ bytes: [UInt8], chunkSizes: [Int]) throws(CorpusError) -> ReadResult {
        var reader = RecordingReader(file: file)
        var result = ReadResult()
        let collect = { (item: RecordingReader.Item) in
            switch item {
            case .header(let header): result.headers.append(header)
            case .exchange(let exchange): result.exchanges.append(exchange)
            }
        }
        var start = 0
        var chunk = 0
        while start < bytes.count {
            let size = max(1, chunkSizes.isEmpty ? bytes.count : chunkSizes[chunk % chunkSizes.count])
            let end = min(bytes.count, start + size)
            try bytes.withUnsafeBufferPointer { all throws(CorpusError) in
                try reader.feed(UnsafeBufferPointer(rebasing: all[start..<end])) { item throws(CorpusError) in collect(item) }
            }
            start = end
            chunk += 1
        }
        try reader.finish { item throws(CorpusError) in collect(item) }
        result.tornLine = reader.tornLine
        return result
    }

    static func read(_ text: String, chunkSizes: [Int] = []) throws(CorpusError) -> ReadResult {
        try read(Array(text.utf8), chunkSizes: chunkSizes)
    }

    static func randomChunkSizes(seed: UInt64, maximum: Int) -> [Int] {
        var generator = SplitMix64(state: seed)
        return (0..<97).map { _ in Int.random(in: 1...maximum, using: &generator) }
    }

    @Test("header and exchanges round trip through their compact JSON lines")
    func roundTrip() throws {
        let result = try Self.read(Self.text)
        #expect(result.headers == [Self.header])
        #expect(result.exchanges.count == Self.exchanges.count)
        for (read, written) in zip(result.exchanges, Self.exchanges) {
            #expect(read == written)
            #expect(CanonicalJSON.compact(read.json) == CanonicalJSON.compact(written.json))
        }
        #expect(result.exchanges.map(\.line) == Array(2...(Self.exchanges.count + 1)))
        #expect(result.tornLine == nil)
        #expect(result.headers.first?.version == RecordingHeader.currentVersion)
        #expect(result.headers.first?.protocolName == "kizunasync")
    }

    @Test("milliseconds keep three decimals through a round trip")
    func milliseconds() throws {
        let result = try Self.read(Self.text)
        #expect(result.exchanges[0].atMilliseconds == 12.5)
        #expect(result.exchanges[0].durationMilliseconds == 3.25)
        #expect(result.exchanges[1].durationMilliseconds == 0.001)
        #expect(result.exchanges[2].atMilliseconds == 1_000_000)
    }

    @Test("fixed chunk sizes give identical results", arguments: [1, 2, 3, 5, 7, 16, 64, 255, 4096])
    func fixedChunks(size: Int) throws {
        let whole = try Self.read(Self.text)
        #expect(try Self.read(Self.text, chunkSizes: [size]) == whole)
    }

    @Test("random chunk sizes give identical results", arguments: [UInt64(1), 2, 3, 42, 1234, 99_999])
    func randomChunks(seed: UInt64) throws {
        let whole = try Self.read(Self.text)
        #expect(try Self.read(Self.text, chunkSizes: Self.randomChunkSizes(seed: seed, maximum: 9)) == whole)
        #expect(try Self.read(Self.text, chunkSizes: Self.randomChunkSizes(seed: seed &+ 7, maximum: 300)) == whole)
    }

    @Test("a torn last line is reported and every earlier exchange is delivered", arguments: [0, 1, 3, 17])
    func tornLastLine(seed: UInt64) throws {
        let next = CanonicalJSON.compact(RecordedExchange(number: 99, rpc: "pull", request: ["a": 1], response: ["b": 2]).json)
        let torn = Self.text + String(next.prefix(next.count / 2))
        let chunkSizes = seed == 0 ? [] : Self.randomChunkSizes(seed: seed, maximum: 11)
        let result = try Self.read(torn, chunkSizes: chunkSizes)
        #expect(result.headers == [Self.header])
        #expect(result.exchanges == Self.exchanges)
        #expect(result.tornLine == Self.exchanges.count + 2)
    }

    @Test("a torn line cut one byte before its end is still torn")
    func tornByOneByte() throws {
        let cut = String(Self.text.dropLast(2))  // drops "}\n" of the last exchange
        let result = try Self.read(cut, chunkSizes: [1])
        #expect(result.exchanges == Array(Self.exchanges.dropLast()))
        #expect(result.tornLine == Self.exchanges.count + 1)
    }

    @Test("a complete last line without its newline is accepted", arguments: [0, 1, 5])
    func lastLineWithoutNewline(chunk: Int) throws {
        let text = String(Self.text.dropLast())
        let result = try Self.read(text, chunkSizes: chunk == 0 ? [] : [chunk])
        #expect(result.exchanges == Self.exchanges)
        #expect(result.tornLine == nil)
    }

    @Test("blank lines are skipped but still counted")
    func blankLines() throws {
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let text = lines[0] + "\n\n" + lines[1...].joined(separator: "\n")
        let result = try Self.read(text)
        #expect(result.exchanges.count == Self.exchanges.count)
        #expect(result.exchanges.first?.line == 3)
    }

    @Test("an invalid line in the middle is an error naming that line", arguments: [0, 1, 4])
    func invalidMiddleLine(chunk: Int) throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        lines[3] = "{\"exchange\": 3, oops"
        let text = lines.joined(separator: "\n") + "\n"
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(text, chunkSizes: chunk == 0 ? [] : [chunk]) })
        #expect(error.file == Self.file)
        #expect(error.line == 4)
        #expect(error.description.hasPrefix("\(Self.file):4: invalid JSON at column "))
    }

    @Test("a middle line that is JSON but not an exchange names line and pointer")
    func grammarMiddleLine() throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        let value = Self.exchanges[1].json.setting("/http/status", to: "200")
        lines[2] = CanonicalJSON.compact(value)
        let text = lines.joined(separator: "\n") + "\n"
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(text, chunkSizes: [3]) })
        #expect(error.line == 3)
        #expect(error.pointer == JSONPointer("/http/status"))
        #expect(error.description == "\(Self.file):3: /http/status: expected an integer, found string")
    }

    @Test(
        "milliseconds a recording cannot hold are refused naming line and pointer",
        arguments: [("/at_ms", "1e400"), ("/at_ms", "-1e400"), ("/duration_ms", "9.000000000000001e15"), ("/duration_ms", "-1e300")])
    func unrecordableMilliseconds(pointer: String, literal: String) throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        let value = Self.exchanges[1].json.setting(pointer, to: .number(JSONNumber(literal: literal)))
        lines[2] = CanonicalJSON.compact(value)
        let text = lines.joined(separator: "\n") + "\n"
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(text, chunkSizes: [5]) })
        #expect(error.line == 3)
        #expect(error.pointer == JSONPointer(pointer))
        #expect(error.description.hasSuffix("expected a number of milliseconds of at most 9e15 in magnitude, found \(literal)"))
    }

    @Test("the largest milliseconds a recording holds are read and written back unchanged")
    func largestMilliseconds() throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        let value = Self.exchanges[1].json.setting("/at_ms", to: .number(JSONNumber(literal: "-9000000000000000")))
        lines[2] = CanonicalJSON.compact(value)
        let result = try Self.read(lines.joined(separator: "\n") + "\n")
        #expect(result.exchanges[1].atMilliseconds == -RecordedExchange.maximumMilliseconds)
        #expect(CanonicalJSON.compact(result.exchanges[1].json) == lines[2])
    }

    @Test("an unknown key on an exchange line is refused")
    func unknownKey() throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        lines[1] = CanonicalJSON.compact(Self.exchanges[0].json.setting("/extra", to: 1))
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(lines.joined(separator: "\n")) })
        #expect(error.line == 2)
        #expect(error.pointer == JSONPointer("/extra"))
    }

    @Test("a recording without a header line is an error")
    func missingHeader() throws {
        let withoutHeader = Self.exchanges.map { Self.line($0.json) }.joined()
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(withoutHeader) })
        #expect(error.file == Self.file)
        #expect(error.line == 1)
        #expect(error.description.contains("accord_recording"))
    }

    @Test("empty input has no header", arguments: ["", "\n", "  \n\n"])
    func emptyInput(text: String) throws {
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(text) })
        #expect(error.file == Self.file)
        #expect(error.description.contains("no recording header line"))
    }

    @Test("an unsupported recording version is refused at /accord_recording")
    func unsupportedVersion() throws {
        var lines = Self.text.split(separator: "\n").map(String.init)
        lines[0] = CanonicalJSON.compact(Self.header.json.setting("/accord_recording", to: 2))
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(lines.joined(separator: "\n")) })
        #expect(error.line == 1)
        #expect(error.pointer == JSONPointer("/accord_recording"))
    }

    @Test("only a torn header is torn, then the missing header is an error")
    func tornHeaderOnly() throws {
        let header = CanonicalJSON.compact(Self.header.json)
        let error = try #require(corpusError { () throws(CorpusError) in try Self.read(String(header.prefix(10))) })
        #expect(error.description.contains("no recording header line"))
    }
}
