import JSON
import Testing

/// Writes random JSON with random whitespace and random but equivalent escapes.
struct RewriteDocumentWriter {
    var rng: SplitMix64
    var out: [UInt8] = []

    static let keys = ["a", "x", "tok", "token", "keep", "keeper", "id", "é", "日本", "a\"b", "k\\", "tab\t", "x", "a", "😀", ""]
    static let scalars: [Unicode.Scalar] = [
        "a", "b", "x", "X", "e", "y", "J", ".", "=", ":", " ", "/", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß",
        "日", "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}", "\u{301}",
    ]

    mutating func whitespace() {
        guard rng.chance(30) else { return }
        for _ in 0..<(1 + rng.below(3)) { out.append(rng.pick([0x20, 0x09, 0x0A, 0x0D])) }
    }

    mutating func hex4(_ value: UInt32) {
        out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        let digits = Array((rng.chance(50) ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    mutating func string(_ text: String) {
        out.append(0x22)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let short: [UInt32: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x08: 0x62, 0x0C: 0x66, 0x0A: 0x6E, 0x0D: 0x72, 0x09: 0x74]
            let mustEscape = value < 0x20 || value == 0x22 || value == 0x5C
            if !mustEscape && rng.chance(80) {
                out.append(contentsOf: Array(String(scalar).utf8))
            } else if let letter = short[value], rng.chance(60) {
                out.append(contentsOf: [0x5C, letter])
            } else if value > 0xFFFF {
                hex4(0xD800 + ((value - 0x10000) >> 10))
                hex4(0xDC00 + ((value - 0x10000) & 0x3FF))
            } else {
                hex4(value)
            }
        }
        out.append(0x22)
    }

    mutating func text() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<rng.below(8) { scalars.append(rng.pick(Self.scalars)) }
        return String(scalars)
    }

    mutating func number() {
        if rng.chance(30) { out.append(UInt8(ascii: "-")) }
        if rng.chance(30) {
            out.append(UInt8(ascii: "0"))
        } else {
            out.append(UInt8(ascii: "1") + UInt8(rng.below(9)))
            for _ in 0..<rng.below(4) { out.append(UInt8(ascii: "0") + UInt8(rng.below(10))) }
        }
        if rng.chance(30) {
            out.append(UInt8(ascii: "."))
            for _ in 0...rng.below(3) { out.append(UInt8(ascii: "0") + UInt8(rng.below(10))) }
        }
        if rng.chance(25) {
            out.append(rng.pick([UInt8(ascii: "e"), UInt8(ascii: "E")]))
            if rng.chance(60) { out.append(rng.pick([UInt8(ascii: "+"), UInt8(ascii: "-")])) }
            for _ in 0...rng.below(2) { out.append(UInt8(ascii: "0") + UInt8(rng.below(10))) }
        }
    }

    mutating func value(depth: Int) {
        whitespace()
        switch depth > 4 ? rng.below(5) : rng.below(8) {
        case 0: out.append(contentsOf: Array(rng.pick(["true", "false", "null"]).utf8))
        case 1, 2: number()
        case 3, 4: string(text())
        case 5:
            out.append(UInt8(ascii: "["))
            let count = rng.below(4)
            for index in 0..<count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value(depth: depth + 1)
            }
            if count == 0 { whitespace() }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(UInt8(ascii: "{"))
            let count = rng.below(5)
            for index in 0..<count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                whitespace()
                string(rng.chance(20) ? text() : rng.pick(Self.keys))
                whitespace()
                out.append(UInt8(ascii: ":"))
                value(depth: depth + 1)
            }
            if count == 0 { whitespace() }
            out.append(UInt8(ascii: "}"))
        }
        whitespace()
    }
}

@Suite("JSON rewriter differential fuzz")
struct JSONRewriterFuzzTests {
    static let interesting: [[UInt8]] = [
        [0x00], [0x1F], [0x22], [0x5C], [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xFF], [0x2C], [0x5D], [0x7D],
        [0x30], [0x65], [0x2D], [0x3A], Array(#"\ud800"#.utf8), Array(#"\udc00"#.utf8), Array(#"\u"#.utf8), [0x0A], [0x7B], [0x5B],
    ]

    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0...rng.below(2) {
            let at = rng.below(bytes.count + 1)
            switch rng.below(7) {
            case 0: bytes = Array(bytes[..<at])
            case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 2 where at < bytes.count: bytes.remove(at: at)
            case 3: bytes.append(contentsOf: rng.pick([[0x2C], [0x78], [0x7D], [0x20, 0x31], [0x5D], [0x00]]))
            case 4:
                if let close = bytes.lastIndex(where: { $0 == 0x5D || $0 == 0x7D }) { bytes.insert(0x2C, at: close) }
            default: bytes.insert(contentsOf: rng.pick(Self.interesting), at: at)
            }
        }
        return bytes
    }

    @Test("random documents and their mutations: same validity, bytes, capture and rule calls as the tree path")
    func differential() {
        var rng = SplitMix64(state: 0x5EED_0F_2EC0DE)
        var accepted = 0
        var refused = 0
        for round in 0..<3_000 {
            var writer = RewriteDocumentWriter(rng: SplitMix64(state: rng.next()))
            writer.value(depth: 0)
            let key = rng.chance(70) ? rng.pick(RewriteDocumentWriter.keys) : nil
            let document = writer.out
            let candidates = round % 2 == 0 ? [document] : [document, Self.mutate(document, &rng), Self.mutate(document, &rng)]
            for bytes in candidates {
                let rules = MarkingRules()
                let reference = MarkingRules()
                let expected = RewriteReference.rewrite(bytes, reference, capturing: key)
                let got = runRewriter(bytes, rules, capturing: key)
                let shown = String(decoding: bytes, as: UTF8.self)
                guard got.valid == (expected != nil), got.prefixKept else {
                    Issue.record("validity or prefix differs (reference \(expected != nil)) for \(bytes) \(shown)")
                    continue
                }
                guard let expected else {
                    refused += 1
                    if !got.out.isEmpty { Issue.record("output left after refusing \(bytes)") }
                    continue
                }
                accepted += 1
                if got.out != expected.bytes || got.captured != expected.captured || rules.log != askingEachKeyOnce(reference.log) {
                    Issue.record("differs for \(bytes) \(shown): got \(String(decoding: got.out, as: UTF8.self))")
                }
            }
        }
        #expect(accepted > 3_000 && refused > 1_000, "accepted \(accepted), refused \(refused)")
    }

    @Test("deep documents around the depth limit, mixed objects and arrays, with treatments on the way")
    func deepDocuments() {
        var rng = SplitMix64(state: 42)
        for _ in 0..<24 {
            let depth = JSONParser.maximumDepth + rng.below(3) - 1
            var open: [UInt8] = []
            var close: [UInt8] = []
            for level in 0..<depth {
                if rng.chance(50) {
                    open += Array("{\"\(rng.pick(["a", "tok", "keep", "x"]))\":".utf8)
                    close.insert(0x7D, at: 0)
                } else {
                    open += rng.chance(50) || level == depth - 1 ? [0x5B] : Array("[1,".utf8)
                    close.insert(0x5D, at: 0)
                }
            }
            let middle = open.last == 0x3A ? Array("\"x\"".utf8) : []
            JSONRewriterTests.check(open + middle + close)
        }
    }
}
