import JSON
import Testing

@Suite("Large string encoding")
struct EncodedStringTests {
    /// The byte-at-a-time literal: `appendString` into a buffer that is not empty takes that path.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x20]
        bytes.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
        return Array(out.dropFirst())
    }

    @Test("encodedString(utf8:) equals the byte-at-a-time literal for random text of every length and mix")
    func matchesReference() {
        var rng = SplitMix64(state: 20_261_130)
        let alphabet: [[UInt8]] = [
            Array("a".utf8), Array("Z".utf8), Array(" ".utf8), Array("\"".utf8), Array("\\".utf8), [0x0A], [0x0D], [0x09], [0x08],
            [0x0C], [0x00], [0x01], [0x1F], [0x7F], Array("é".utf8), Array("日".utf8), Array("😀".utf8), Array("/".utf8),
        ]
        for round in 0..<2_000 {
            let length = round < 100 ? round : rng.below(round % 7 == 0 ? 20_000 : 300)
            var text: [UInt8] = []
            let escapeRate = rng.pick([0, 1, 10, 50, 100])
            while text.count < length {
                text += rng.chance(escapeRate) ? rng.pick(alphabet) : Array("lorem".utf8.prefix(1 + rng.below(5)))
            }
            let fast = text.withUnsafeBufferPointer { CanonicalJSON.encodedString(utf8: $0) }
            #expect(fast == Self.reference(text), "round \(round), \(text.count) bytes")
        }
    }

    @Test("appendString(utf8:) into an empty buffer takes the word path for large text and still round-trips")
    func largeRoundTrip() throws {
        let text = String(repeating: "{\"seq\":1,\"text\":\"tab\there\"}\n", count: 500) + "\u{01}end"
        var out: [UInt8] = []
        var copy = text
        copy.withUTF8 { CanonicalJSON.appendString(utf8: $0, to: &out) }
        #expect(out == Self.reference(Array(text.utf8)))
        #expect(try JSONParser.parse(out) == .string(text))
    }
}
