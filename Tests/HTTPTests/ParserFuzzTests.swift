import HTTP
import Testing

/// Mutated requests never crash the parser: each outcome is a valid parse, incomplete, or a
/// 4xx/5xx refusal, and a complete parse never claims more bytes than it was given.
@Suite("Parser fuzzing")
struct ParserFuzzTests {
    private static let seeds = [
        "POST /rest/v1/rpc/pull HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: v\r\n\r\n",
        "GET /x?y=z HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    ]

    private static let interesting: [UInt8] = Array("\r\n :;0123456789abcdefABCDEF\t\u{0}\u{7F}/?%-".utf8) + [0x80, 0xFF]

    private static func mutate(_ bytes: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            let byte =
                Bool.random(using: &generator)
                ? interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !bytes.isEmpty: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...16, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    @Test("20,000 mutated requests end in a parse, incomplete, or a refusal")
    func mutations() {
        var generator = SeededGenerator(state: 0xACC0_5EED)
        let parser = HTTPRequestParser(limits: HTTPLimits(requestLine: 256, headerBlock: 512, body: 64))
        var counts = [String: Int]()
        for round in 0..<20_000 {
            let seed = Array(Self.seeds[round % Self.seeds.count].utf8)
            let input = Self.mutate(seed, &generator)
            switch parser.parse(input[...]) {
            case .complete(let request, let consumed):
                #expect(consumed > 0 && consumed <= input.count)
                #expect(request.body.count <= 64)
                counts["complete", default: 0] += 1
            case .incomplete:
                counts["incomplete", default: 0] += 1
            case .failed(let error):
                #expect((400..<600).contains(error.status))
                #expect(!error.isSocketError)
                counts["failed", default: 0] += 1
            }
        }
        #expect(counts["complete", default: 0] > 100)
        #expect(counts["failed", default: 0] > 100)
    }

    @Test("random bytes never parse into a request with stray bytes")
    func randomBytes() {
        var generator = SeededGenerator(state: 42)
        let parser = HTTPRequestParser()
        for _ in 0..<5_000 {
            let input = (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .complete(let request, _) = parser.parse(input[...]) {
                #expect(request.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
            }
        }
    }
}
