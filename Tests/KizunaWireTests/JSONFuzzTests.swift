import Foundation
import JSON
import Testing

// A deterministic, structure-aware differential fuzz harness for JSONParser.
//
// Each iteration generates a random JSON document whose value is known by construction (with
// random whitespace and random choices among equivalent escapes), then:
//   1. the document must parse to exactly that value and survive render → parse;
//   2. a mutation that is invalid by construction (truncation, a raw control byte or invalid
//      UTF-8 inside a string, a trailing comma, a lone surrogate, a leading zero, ...) must be
//      refused, and where the position is known the error must name it;
//   3. random byte mutations, whose validity is not known, must not crash the parser and must be
//      accepted or refused exactly as an independent reference recognizer (below) decides.
//
// Set KIZUNAWIRE_FUZZ_DUMP=<dir> to also write every generated document and the parser's verdict
// there (MANIFEST.tsv: name, accept|reject), for an external cross-check, e.g. against Python's
// json module with NaN/Infinity refused, lone surrogates refused and depth capped at 512.
// Set KIZUNAWIRE_FUZZ_ITERATIONS=<n> for a longer run.

/// Structural equality with strings compared by their UTF-8 bytes (Swift's `==` on String
/// would treat canonically equivalent strings as equal and hide a decoding bug).
func sameBytes(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x.literal == y.literal
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameBytes($0, $1) }
    case (.object(let x), .object(let y)):
        return x.count == y.count
            && zip(x.members, y.members).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && sameBytes($0.value, $1.value) }
    default: return false
    }
}

/// The parser's verdict on `bytes`, with the error's position checked for consistency.
private func parserVerdict(_ bytes: [UInt8]) -> (accepted: Bool, value: JSONValue?, error: JSONParseError?) {
    do {
        let value = try JSONParser.parse(bytes)
        return (true, value, nil)
    } catch {
        return (false, nil, error)
    }
}

/// Checks that an error's line and column agree with its offset.
private func positionIsConsistent(_ error: JSONParseError, in bytes: [UInt8]) -> Bool {
    guard error.offset >= 0, error.offset <= bytes.count else { return false }
    let before = bytes[..<error.offset]
    let line = 1 + before.count(where: { $0 == 0x0A })
    let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
    return error.line == line && error.column == error.offset - lineStart + 1
}

@Suite("JSON differential fuzz")
struct JSONFuzzTests {
    /// 2,000 by default; KIZUNAWIRE_FUZZ_ITERATIONS overrides it for a longer run.
    static let iterations = ProcessInfo.processInfo.environment["KIZUNAWIRE_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 2_000
    static let seed: UInt64 = 0x4B49_5A55_4E41_0001

    /// The known-invalid mutation kinds.
    enum Breakage: CaseIterable {
        case truncate, truncateInsideString, controlByteInString, trailingComma, invalidUTF8InString, loneSurrogate
        case leadingZero, badEscape, missingColon, missingComma, mismatchedCloser, trailingGarbage, badWhitespace
    }

    /// Breaks a valid document in a way that is invalid by construction; returns nil when the
    /// document has nothing to break that way. `offset` is the error offset when it is known.
    static func breaking(_ doc: GeneratedDocument, _ kind: Breakage, _ rng: inout SplitMix64) -> (bytes: [UInt8], offset: Int?)? {
        var bytes = doc.bytes
        func nextNonSpace(from start: Int) -> Int {
            var index = start
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return index
        }
        switch kind {
        case .truncate:
            guard doc.topIsContainer, let last = doc.closers.last else { return nil }
            return (Array(bytes[..<rng.below(last.offset + 1)]), nil)
        case .truncateInsideString:
            guard let string = doc.strings.randomElement(using: &rng) else { return nil }
            return (Array(bytes[..<(string.open + rng.below(string.close - string.open + 1))]), nil)
        case .controlByteInString:
            guard let string = doc.strings.randomElement(using: &rng) else { return nil }
            // anywhere in the content, even inside an escape or a multi-byte character
            let at = string.open + rng.below(string.close - string.open + 1)
            bytes.insert(UInt8(rng.below(0x20)), at: at)
            return (bytes, doc.characterStarts.contains(at) ? at : nil)
        case .trailingComma:
            guard let closer = doc.closers.randomElement(using: &rng) else { return nil }
            bytes.insert(UInt8(ascii: ","), at: closer.offset)
            return (bytes, closer.empty ? closer.offset : closer.offset + 1)
        case .invalidUTF8InString:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            let bad: [[UInt8]] = [
                [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0x81], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
            ]
            bytes.insert(contentsOf: rng.pick(bad), at: at)
            return (bytes, nil)
        case .loneSurrogate:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: Array(rng.pick(["\\ud800", "\\uDBFF", "\\udc00", "\\uDFFF", "\\ud83d"]).utf8), at: at)
            return (bytes, at)
        case .leadingZero:
            guard let number = doc.numbers.randomElement(using: &rng) else { return nil }
            bytes.insert(UInt8(ascii: "0"), at: number.firstDigit)
            return (bytes, number.start)
        case .badEscape:
            guard let at = doc.characterStarts.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: [0x5C, rng.pick(Array("xUa'0 v%".utf8) + [0x01, 0xC3])], at: at)
            return (bytes, at)
        case .missingColon:
            guard let colon = doc.colons.randomElement(using: &rng) else { return nil }
            bytes[colon] = 0x20
            return (bytes, nextNonSpace(from: colon))
        case .missingComma:
            guard let comma = doc.commas.randomElement(using: &rng) else { return nil }
            bytes[comma] = 0x20
            return (bytes, nextNonSpace(from: comma))
        case .mismatchedCloser:
            guard let closer = doc.closers.randomElement(using: &rng) else { return nil }
            bytes[closer.offset] = bytes[closer.offset] == UInt8(ascii: "]") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            return (bytes, closer.offset)
        case .trailingGarbage:
            let junk = rng.pick(["]", "}", ",", ":", "x", "{}", "1", "\"\"", "[]", "null"])
            let spacer = rng.pick(["", " ", "\n"])
            if spacer.isEmpty, !doc.topIsContainer, junk == "1" || junk == "null" { return nil }  // "11" or "truenull" merge
            bytes += Array((spacer + junk).utf8)
            return (bytes, doc.bytes.count + spacer.utf8.count)
        case .badWhitespace:
            guard let at = doc.gaps.randomElement(using: &rng) else { return nil }
            bytes.insert(contentsOf: rng.pick([[0x0C], [0x0B], [0xC2, 0xA0], [0xEF, 0xBB, 0xBF], [0x00], [0xE3, 0x80, 0x80]]), at: at)
            return (bytes, at)
        }
    }

    /// Changes one to three bytes at random; the result may or may not be valid.
    static func randomMutation(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        let alphabet: [UInt8] =
            Array("[]{}:,\"\\ue-+.0123456789tfnaEx/ \n\t\r".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        for _ in 0..<(1 + rng.below(3)) {
            switch rng.below(4) {
            case 0 where !out.isEmpty: out[rng.below(out.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 1 where !out.isEmpty: out.remove(at: rng.below(out.count))
            case 2: out.insert(rng.pick(alphabet), at: rng.below(out.count + 1))
            default:
                if !out.isEmpty { out[rng.below(out.count)] = rng.pick(alphabet) }
            }
        }
        return out
    }

    @Test("generated documents, known-invalid mutations and random mutations agree with the reference")
    func differentialFuzz() throws {
        var generator = DocumentGenerator(seed: Self.seed)
        var mutationRNG = SplitMix64(state: Self.seed ^ 0xFFFF)
        let dump = ProcessInfo.processInfo.environment["KIZUNAWIRE_FUZZ_DUMP"].map { URL(fileURLWithPath: $0) }
        var manifest: [String] = []
        func record(_ name: String, _ bytes: [UInt8], _ accepted: Bool) throws {
            guard let dump else { return }
            try Data(bytes).write(to: dump.appendingPathComponent(name))
            manifest.append("\(name)\t\(accepted ? "accept" : "reject")")
        }

        var breakageCounts: [Breakage: Int] = [:]
        var randomAccepted = 0
        var randomRejected = 0
        var failures = 0

        for iteration in 0..<Self.iterations {
            guard failures < 20 else { break }  // keep a broken run readable
            let (doc, expected) = generator.document()

            // 1. the valid document parses to the generated value and round-trips
            let valid = parserVerdict(doc.bytes)
            try record("\(iteration)-valid.json", doc.bytes, valid.accepted)
            guard let parsed = valid.value else {
                failures += 1
                Issue.record(
                    "valid document \(iteration) refused: \(valid.error!) in \(String(decoding: doc.bytes, as: UTF8.self).debugDescription)"
                )
                continue
            }
            if !sameBytes(parsed, expected) {
                failures += 1
                Issue.record(
                    "document \(iteration) parsed to the wrong value: \(String(decoding: doc.bytes, as: UTF8.self).debugDescription)")
            }
            #expect(ReferenceRecognizer.accepts(doc.bytes), "the reference refuses valid document \(iteration)")
            let rendered = CanonicalJSON.render(parsed)
            let reparsed = try JSONParser.parse(rendered)
            // rendering sorts members (stably, so duplicate keys keep their order)
            if !sameBytes(reparsed, parsed.sortedKeys()) || CanonicalJSON.render(reparsed) != rendered {
                failures += 1
                Issue.record("document \(iteration) does not survive render → parse")
            }
            #expect(!CanonicalJSON.violations(raw: rendered, value: reparsed).contains { $0.clause == "C-7" || $0.clause == "C-1" })
            let compact = Array(CanonicalJSON.compact(parsed).utf8)
            #expect(sameBytes(try JSONParser.parse(compact), reparsed.sortedKeys()), "compact form of \(iteration)")

            // 2. mutations that are invalid by construction are refused, at the right place
            for round in 0..<2 {
                let kind = Breakage.allCases[mutationRNG.below(Breakage.allCases.count)]
                guard let breakage = Self.breaking(doc, kind, &mutationRNG) else { continue }
                let (broken, offset) = breakage
                breakageCounts[kind, default: 0] += 1
                let verdict = parserVerdict(broken)
                try record("\(iteration)-\(kind)\(round).json", broken, verdict.accepted)
                guard let error = verdict.error else {
                    failures += 1
                    Issue.record(
                        "\(kind) of document \(iteration) was accepted: \(String(decoding: broken, as: UTF8.self).debugDescription)")
                    continue
                }
                if !positionIsConsistent(error, in: broken) {
                    failures += 1
                    Issue.record("\(kind) of document \(iteration): inconsistent position \(error)")
                }
                if let offset, error.offset != offset {
                    failures += 1
                    Issue.record(
                        "\(kind) of document \(iteration): error at \(error.offset), expected \(offset): \(error) in \(String(decoding: broken, as: UTF8.self).debugDescription)"
                    )
                }
                if ReferenceRecognizer.accepts(broken) {
                    failures += 1
                    Issue.record("the reference accepts \(kind) of document \(iteration)")
                }
            }

            // 3. random byte mutations: no crash, and the same verdict as the reference
            for round in 0..<2 {
                let mutated = Self.randomMutation(doc.bytes, &mutationRNG)
                let verdict = parserVerdict(mutated)
                try record("\(iteration)-random\(round).json", mutated, verdict.accepted)
                let reference = ReferenceRecognizer.accepts(mutated)
                if verdict.accepted != reference {
                    failures += 1
                    Issue.record(
                        "random mutation of document \(iteration): parser \(verdict.accepted ? "accepts" : "refuses (\(verdict.error!))"), reference \(reference ? "accepts" : "refuses"): \(mutated)"
                    )
                }
                if let error = verdict.error, !positionIsConsistent(error, in: mutated) {
                    failures += 1
                    Issue.record("random mutation of document \(iteration): inconsistent position \(error)")
                }
                if let value = verdict.value {
                    randomAccepted += 1
                    let again = CanonicalJSON.render(value)
                    if !sameBytes(try JSONParser.parse(again), value.sortedKeys()) {
                        failures += 1
                        Issue.record("accepted mutation of document \(iteration) does not survive render → parse")
                    }
                } else {
                    randomRejected += 1
                }
            }
        }

        if let dump {
            try (manifest.joined(separator: "\n") + "\n").write(
                to: dump.appendingPathComponent("MANIFEST.tsv"), atomically: true, encoding: .utf8)
        }
        // every breakage kind was exercised, and random mutations hit both outcomes
        for kind in Breakage.allCases { #expect(breakageCounts[kind, default: 0] > Self.iterations / 100, "\(kind) exercised") }
        #expect(randomAccepted > Self.iterations / 40)
        #expect(randomRejected > Self.iterations / 2)
        #expect(failures == 0)
    }

    @Test("the reference recognizer agrees with the parser's unit cases")
    func referenceSanity() {
        for (text, _) in JSONParserTests.acceptCases {
            #expect(ReferenceRecognizer.accepts(Array(text.utf8)), "\(text.debugDescription)")
        }
        for text in JSONParserTests.rejectCases {
            #expect(!ReferenceRecognizer.accepts(Array(text.utf8)), "\(text.debugDescription)")
        }
        for bad in JSONParserTests.invalidUTF8 {
            #expect(!ReferenceRecognizer.accepts([0x22] + bad + [0x22]))
        }
        let depth = JSONParser.maximumDepth
        #expect(ReferenceRecognizer.accepts(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)))
        #expect(
            !ReferenceRecognizer.accepts(Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8)))
    }

    @Test("the generator is deterministic")
    func deterministic() {
        var first = DocumentGenerator(seed: 7)
        var second = DocumentGenerator(seed: 7)
        for _ in 0..<20 { #expect(first.document().0.bytes == second.document().0.bytes) }
    }
}

extension JSONValue {
    /// The same value with every object's members in canonical (byte-sorted) order.
    func sortedKeys() -> JSONValue {
        switch self {
        case .array(let elements): return .array(elements.map { $0.sortedKeys() })
        case .object(let object):
            return .object(JSONObject(CanonicalJSON.sortedMembers(object).map { .init(key: $0.key, value: $0.value.sortedKeys()) }))
        default: return self
        }
    }
}

extension SplitMix64: RandomNumberGenerator {}
