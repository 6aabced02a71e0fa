import Foundation
import JSON
import Testing

/// The violations of `raw` (parsed without its BOM, if any).
private func violations(_ raw: [UInt8]) throws -> [CanonicalViolation] {
    let body = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(raw.dropFirst(3)) : raw
    return CanonicalJSON.violations(raw: raw, value: try JSONParser.parse(body))
}

private func violations(_ text: String) throws -> [CanonicalViolation] {
    try violations(Array(text.utf8))
}

/// Replaces the first occurrence of `target` in `bytes`.
private func replacingFirst(_ target: String, with replacement: String, in bytes: [UInt8]) throws -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    let range = try #require(text.range(of: target), "\(target.debugDescription) not found")
    return Array(text.replacingCharacters(in: range, with: replacement).utf8)
}

/// Pretty-prints like the canonical writer but keeps members in the given order.
private func prettyUnsorted(_ value: JSONValue, depth: Int = 0) -> String {
    let pad = String(repeating: "  ", count: depth + 1)
    let close = String(repeating: "  ", count: depth)
    switch value {
    case .array(let elements) where !elements.isEmpty:
        return "[\n" + elements.map { pad + prettyUnsorted($0, depth: depth + 1) }.joined(separator: ",\n") + "\n" + close + "]"
    case .object(let object) where object.count > 0:
        let members = object.members.map { member -> String in
            var key: [UInt8] = []
            CanonicalJSON.appendString(member.key, to: &key)
            return pad + String(decoding: key, as: UTF8.self) + ": " + prettyUnsorted(member.value, depth: depth + 1)
        }
        return "{\n" + members.joined(separator: ",\n") + "\n" + close + "}"
    default:
        return CanonicalJSON.compact(value)
    }
}

@Suite("CanonicalJSON")
struct CanonicalJSONTests {
    // MARK: - rendering

    @Test("renders 2-space indent, sorted keys, ': ' separators and one trailing newline")
    func rendersCanonicalLayout() throws {
        let value: JSONValue = [
            "b": 1, "a": [1, "two", [], [:], nil, true], "c": ["y": nil, "x": "s", "z": [["k": false]]],
        ]
        let expected = """
            {
              "a": [
                1,
                "two",
                [],
                {},
                null,
                true
              ],
              "b": 1,
              "c": {
                "x": "s",
                "y": null,
                "z": [
                  {
                    "k": false
                  }
                ]
              }
            }

            """
        #expect(canonicalText(value) == expected)
        #expect(
            CanonicalJSON.compact(value)
                == "{\"a\":[1,\"two\",[],{},null,true],\"b\":1,\"c\":{\"x\":\"s\",\"y\":null,\"z\":[{\"k\":false}]}}")
    }

    @Test("renders top-level scalars and empty containers")
    func rendersScalars() {
        #expect(canonicalText(1) == "1\n")
        #expect(canonicalText("s") == "\"s\"\n")
        #expect(canonicalText(nil) == "null\n")
        #expect(canonicalText(false) == "false\n")
        #expect(canonicalText([]) == "[]\n")
        #expect(canonicalText([:]) == "{}\n")
        #expect(canonicalText(.number(JSONNumber(literal: "-1.50e+3"))) == "-1.50e+3\n")
    }

    @Test("sorts keys by UTF-8 bytes, not by UTF-16 or locale")
    func sortsKeysByteWise() {
        let keys = ["é", "b", "a", "B", "aa", "", "\u{FF61}", "😀", "_", "Z", "a b", "ab"]
        let value = JSONValue.object(JSONObject(keys.map { JSONObject.Member(key: $0, value: .null) }))
        let sorted = CanonicalJSON.sortedMembers(value.objectValue!).map(\.key)
        #expect(sorted == ["", "B", "Z", "_", "a", "a b", "aa", "ab", "b", "é", "\u{FF61}", "😀"])
        // U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80) by bytes, though UTF-16 would put the emoji first
        #expect(CanonicalJSON.compact(value).hasSuffix("\"\u{FF61}\":null,\"😀\":null}"))
    }

    @Test("keeps arrays in order and already-sorted members as they are")
    func keepsArrayOrder() {
        let value: JSONValue = [3, 1, 2]
        #expect(CanonicalJSON.compact(value) == "[3,1,2]")
        let sorted: JSONObject = ["a": 1, "b": 2]
        #expect(CanonicalJSON.sortedMembers(sorted).map(\.key) == ["a", "b"])
    }

    @Test("escapes only what JSON requires (C-5)")
    func escapesMinimally() {
        var out: [UInt8] = []
        CanonicalJSON.appendString("\"\\/\u{8}\u{9}\u{A}\u{C}\u{D}\u{0}\u{1}\u{1F}\u{7F}é😀\u{2028}", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"\\\"\\\\/\\b\\t\\n\\f\\r\\u0000\\u0001\\u001f\u{7F}é😀\u{2028}\"")
        for byte in UInt8(0)..<0x20 {
            var one: [UInt8] = []
            CanonicalJSON.appendString(String(UnicodeScalar(byte)), to: &one)
            let text = String(decoding: one, as: UTF8.self)
            let short: [UInt8: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
            let expected = short[byte] ?? "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            #expect(text == "\"" + expected + "\"")
            // and it parses back to the same control character
            #expect((try? JSONParser.parse(one))?.stringValue == String(UnicodeScalar(byte)))
        }
    }

    @Test("records spans that map rendered bytes back to pointers")
    func recordsSpans() throws {
        let value: JSONValue = ["a": ["b": [10, 20]], "c": "x"]
        let (bytes, spans) = CanonicalJSON.renderWithSpans(value, spanDepth: 2)
        #expect(bytes == CanonicalJSON.render(value))
        let pointers = spans.map(\.0.description)
        #expect(pointers == ["/a/b", "/a", "/c"])
        for (pointer, range) in spans {
            let slice = Array(bytes[range])
            let reparsed = try JSONParser.parse(slice)
            #expect(reparsed == value.value(at: pointer), "span of \(pointer)")
        }
        let none = CanonicalJSON.renderWithSpans(value, spanDepth: 0)
        #expect(none.spans.isEmpty)
    }

    @Test("writeCompact appends to an existing buffer")
    func writeCompactAppends() {
        var out = Array("x=".utf8)
        CanonicalJSON.writeCompact(["b": [1], "a": "\n"], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x={\"a\":\"\\n\",\"b\":[1]}")
    }

    @Test("agrees with the canonical bytes a known writer produced")
    func matchesKnownBytes() throws {
        // json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False) + "\n" for this value
        let text = "{\n  \"\\u0001\": \"\\u0001\",\n  \"a\": [\n    \"é\\\"\\\\\"\n  ],\n  \"n\": 123456789012345678901234567890\n}\n"
        let value = try json(text)
        #expect(canonicalText(value) == text)
        #expect(try violations(text).map(\.clause) == ["C-4"])
    }

    // MARK: - violations

    @Test("canonical bytes have no violations")
    func noViolationsForCanonical() throws {
        let value: JSONValue = ["a": [1, 2], "b": ["c": "d"], "by": .number(JSONNumber(literal: "-5"))]
        #expect(try violations(CanonicalJSON.render(value)).isEmpty)
    }

    @Test("C-1: a byte-order mark or a carriage return")
    func detectsC1() throws {
        let canonical = CanonicalJSON.render(["a": 1])
        let bom = try violations([0xEF, 0xBB, 0xBF] + canonical)
        #expect(bom.map(\.clause) == ["C-1", "C-7"])
        #expect(bom.first?.offset == 0)
        #expect(bom.first?.detail.contains("byte-order mark") == true)
        let crlf = try violations(Array(String(decoding: canonical, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8))
        #expect(crlf.map(\.clause) == ["C-1", "C-7"])
        #expect(crlf.first?.offset == 1)
    }

    @Test("C-4: numbers other than non-negative integers below 2^31")
    func detectsC4() throws {
        let cases: [(String, Bool)] = [
            ("0", true), ("2147483647", true), ("2147483648", false), ("-1", false), ("-0", false), ("1.0", false),
            ("1e2", false), ("1.5", false), ("9007199254740993", false), ("123456789012345678901234567890", false),
        ]
        for (literal, ok) in cases {
            let text = "{\n  \"n\": \(literal)\n}\n"
            let found = try violations(text)
            #expect(found.map(\.clause) == (ok ? [] : ["C-4"]), "\(literal)")
            if !ok { #expect(found.first?.pointer == JSONPointer("/n")) }
        }
    }

    @Test("C-4: increment.by may be negative but stays inside 31 bits")
    func detectsC4ForIncrementBy() throws {
        let cases: [(String, Bool)] = [
            ("-1", true), ("-2147483647", true), ("2147483647", true), ("-2147483648", false), ("2147483648", false),
            ("-0", false), ("-1.5", false),
        ]
        for (literal, ok) in cases {
            let text = "{\n  \"t\": {\n    \"by\": \(literal),\n    \"op\": \"increment\"\n  }\n}\n"
            #expect(try violations(text).map(\.clause) == (ok ? [] : ["C-4"]), "by \(literal)")
        }
        // a negative number anywhere else is still C-4
        #expect(try violations("[\n  -1\n]\n").map(\.clause) == ["C-4"])
    }

    @Test("C-5: strings that are not NFC")
    func detectsC5() throws {
        let found = try violations("{\n  \"s\": \"e\u{301}\"\n}\n")
        #expect(found.map(\.clause) == ["C-5"])
        #expect(found.first?.pointer == JSONPointer("/s"))
        #expect(try violations("{\n  \"s\": \"é\"\n}\n").isEmpty)
    }

    @Test("C-9: duplicate keys, with the pointer of the duplicate")
    func detectsC9() throws {
        let found = try violations("{\n  \"a\": {\n    \"k\": 1,\n    \"k\": 2\n  }\n}\n")
        #expect(found.map(\.clause) == ["C-9"])
        #expect(found.first?.pointer == JSONPointer("/a/k"))
    }

    @Test("C-7: the first byte that differs, with its offset")
    func detectsC7() throws {
        let missingNewline = try violations("{\n  \"a\": 1\n}")
        #expect(missingNewline.map(\.clause) == ["C-7"])
        #expect(missingNewline.first?.offset == 12)
        #expect(missingNewline.first?.detail.contains("end of input") == true)
        let extraNewline = try violations("{\n  \"a\": 1\n}\n\n")
        #expect(extraNewline.map(\.clause) == ["C-7"])
        #expect(extraNewline.first?.offset == 13)
        let compact = try violations("{\"a\":1}\n")
        #expect(compact.map(\.clause) == ["C-7"])
        #expect(compact.first?.offset == 1)
        let tabs = try violations("{\n\t\"a\": 1\n}\n")
        #expect(tabs.first?.offset == 2)
        let escapedSlash = try violations("{\n  \"a\": \"x\\/y\"\n}\n")
        #expect(escapedSlash.map(\.clause) == ["C-7"])
        #expect(escapedSlash.first?.offset == 11)
        #expect(escapedSlash.first?.pointer == JSONPointer("/a"))
        let unicodeEscape = try violations("{\n  \"a\": \"\\u0041\"\n}\n")
        #expect(unicodeEscape.map(\.clause) == ["C-7"])
        #expect(unicodeEscape.first?.description.hasPrefix("C-7: first divergent byte at offset 10") == true)
    }

    @Test("C-7 names the deepest recorded value that holds the divergence")
    func c7PointerIsInnermost() throws {
        let value: JSONValue = ["steps": [["n": 1, "request": ["b": 1, "a": 2]]]]
        let raw = Array((prettyUnsorted(value) + "\n").utf8)
        let found = try violations(raw)
        #expect(found.map(\.clause) == ["C-7"])
        #expect(found.first?.pointer == JSONPointer("/steps/0/request"))
    }

    @Test("several problems are all reported, in a stable order")
    func reportsEverything() throws {
        let raw: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"b\": [1.5, \"e\u{301}\"],\r\n \"b\": -1}".utf8)
        let found = try violations(raw)
        #expect(found.map(\.clause) == ["C-1", "C-1", "C-9", "C-4", "C-5", "C-4", "C-7"])
        #expect(found.map { $0.pointer?.description ?? "-" } == ["-", "-", "/b", "/b/0", "/b/1", "/b", "-"])
    }

    // MARK: - the upstream corpus

    /// Upstream files that are not in canonical form: they are not covered by the C-rules'
    /// I-1 scope (docs-authority.json is hand-formatted, row-key-vectors.json keeps its vector
    /// fields in reading order and carries a negative integer key).
    static let nonCanonicalUpstream: [String: [String]] = [
        "docs-authority.json": ["C-7"],
        "vectors/row-key-vectors.json": ["C-4", "C-7"],
    ]

    static let corpusFiles = Corpus.jsonFiles()

    @Test("the shared corpus is where the package expects it")
    func corpusIsPresent() {
        #expect(FileManager.default.fileExists(atPath: Corpus.root.appendingPathComponent("README.md").path))
        #expect(Self.corpusFiles.count >= 50)
        #expect(Corpus.jsonFiles(under: "transcripts").count >= 40)
        #expect(Self.corpusFiles.contains("spec/cursor-token-vectors.json"))
    }

    @Test("every corpus file parses and renders back to its exact bytes", arguments: corpusFiles)
    func corpusFileIsCanonical(_ file: String) throws {
        let raw = try Corpus.bytes(file)
        let value = try JSONParser.parse(raw)
        let found = CanonicalJSON.violations(raw: raw, value: value)
        if let expected = Self.nonCanonicalUpstream[file] {
            #expect(Set(found.map(\.clause)) == Set(expected), "\(file): \(found)")
            // even so, the canonical form of its value is a fixed point
            let rendered = CanonicalJSON.render(value)
            #expect(CanonicalJSON.render(try JSONParser.parse(rendered)) == rendered)
        } else {
            #expect(CanonicalJSON.render(value) == raw, "\(file) re-renders byte for byte")
            #expect(found.isEmpty, "\(file): \(found)")
        }
    }

    /// A canonical transcript to break in known ways.
    static let sample = "transcripts/push/005-atomic-batch-revert.json"

    @Test("breaking a corpus file: 4-space indent is C-7")
    func brokenIndent() throws {
        let raw = try Corpus.bytes(Self.sample)
        let text = String(decoding: raw, as: UTF8.self)
        let lines: [Substring] = text.split(separator: "\n" as Character, omittingEmptySubsequences: false)
        var widenedLines: [String] = []
        for line in lines {
            let spaces = line.prefix(while: { $0 == " " }).count
            widenedLines.append(String(repeating: " ", count: spaces * 2) + line.dropFirst(spaces))
        }
        let widened = widenedLines.joined(separator: "\n")
        let found = try violations(widened)
        #expect(found.map(\.clause) == ["C-7"])
        #expect(found.first?.offset == 4)
    }

    @Test("breaking a corpus file: unsorted keys are C-7 at the unsorted object")
    func brokenKeyOrder() throws {
        var value = try Corpus.value(Self.sample)
        guard case .object(var root) = value, case .array(var steps)? = root["steps"], case .object(var step) = steps[1],
            case .object(var request)? = step["request"]
        else {
            Issue.record("unexpected transcript shape")
            return
        }
        request.members.reverse()
        step["request"] = .object(request)
        steps[1] = .object(step)
        root["steps"] = .array(steps)
        value = .object(root)
        let found = try violations(Array((prettyUnsorted(value) + "\n").utf8))
        #expect(found.map(\.clause) == ["C-7"])
        #expect(found.first?.pointer == JSONPointer("/steps/1/request"))
        // top-level keys out of order diverge outside any value span
        root.members.reverse()
        let top = try violations(Array((prettyUnsorted(.object(root)) + "\n").utf8))
        #expect(top.map(\.clause) == ["C-7"])
        #expect(top.first?.offset == 5)
        #expect(top.first?.pointer == nil)
    }

    @Test("breaking a corpus file: CRLF line ends are C-1")
    func brokenLineEnds() throws {
        let raw = try Corpus.bytes(Self.sample)
        let crlf = Array(String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let found = try violations(crlf)
        #expect(found.map(\.clause) == ["C-1", "C-7"])
        #expect(found[0].offset == 1)
        #expect(found[1].offset == 1)
        let bom = try violations([0xEF, 0xBB, 0xBF] + raw)
        #expect(bom.map(\.clause) == ["C-1", "C-7"])
    }

    @Test("breaking a corpus file: a duplicate key is C-9")
    func brokenDuplicateKey() throws {
        let raw = try Corpus.bytes(Self.sample)
        let broken = try replacingFirst("\"has_more\": false,\n", with: "\"has_more\": false,\n        \"has_more\": true,\n", in: raw)
        let found = try violations(broken)
        #expect(found.map(\.clause) == ["C-9"])
        #expect(found.first?.pointer == JSONPointer("/steps/1/response/has_more"))
    }

    @Test("breaking a corpus file: a float or a negative number is C-4")
    func brokenNumber() throws {
        let raw = try Corpus.bytes(Self.sample)
        for literal in ["1.5", "1.0", "1e0", "-1", "2147483648"] {
            let broken = try replacingFirst("\"schema_version\": 1,\n", with: "\"schema_version\": \(literal),\n", in: raw)
            let found = try violations(broken)
            #expect(found.map(\.clause) == ["C-4"], "\(literal)")
            #expect(found.first?.pointer == JSONPointer("/context/schema_version"))
        }
    }

    @Test("breaking a corpus file: a \\/ escape is C-7 at the escape")
    func brokenEscape() throws {
        let raw = try Corpus.bytes(Self.sample)
        let broken = try replacingFirst("JSON:API / AIP-233", with: "JSON:API \\/ AIP-233", in: raw)
        let found = try violations(broken)
        #expect(found.map(\.clause) == ["C-7"])
        let offset = try #require(found.first?.offset)
        #expect(broken[offset] == UInt8(ascii: "\\"))
        #expect(found.first?.pointer == JSONPointer("/context/notes/0"))
    }
}
