import JSON
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: - RFC 8259 accept

    /// Documents RFC 8259 allows, each with its canonical compact rendering.
    static let acceptCases: [(text: String, compact: String)] = [
        ("0", "0"),
        ("-0", "-0"),
        ("1", "1"),
        ("-1", "-1"),
        ("1.5", "1.5"),
        ("1.0", "1.0"),
        ("1e5", "1e5"),
        ("1E+5", "1E+5"),
        ("-2.5e-3", "-2.5e-3"),
        ("0.000", "0.000"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("true", "true"),
        ("false", "false"),
        ("null", "null"),
        ("\"\"", "\"\""),
        ("\"abc\"", "\"abc\""),
        ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\\"\\\\/\\b\\f\\n\\r\\t\""),
        ("\"\\u0041\\u00e9\\u00E9\"", "\"Aéé\""),
        ("\"\\ud83d\\ude00\"", "\"😀\""),
        ("\"\\uD834\\uDD1E\"", "\"𝄞\""),
        ("\"\\u0000\"", "\"\\u0000\""),
        ("\"\\u001f\"", "\"\\u001f\""),
        ("\"\\uffff\"", "\"\u{FFFF}\""),
        ("\"é中😀\"", "\"é中😀\""),
        ("\"\u{7F}\"", "\"\u{7F}\""),
        ("\"\u{2028}\u{2029}\"", "\"\u{2028}\u{2029}\""),
        ("[]", "[]"),
        ("{}", "{}"),
        ("[[]]", "[[]]"),
        ("[1,2,3]", "[1,2,3]"),
        ("{\"a\":1}", "{\"a\":1}"),
        ("{\"b\":1,\"a\":[true,false,null]}", "{\"a\":[true,false,null],\"b\":1}"),
        (" \t\r\n[ 1 ,\t2 ]\r\n ", "[1,2]"),
        ("{ \"a\" : { \"b\" : [ ] } }", "{\"a\":{\"b\":[]}}"),
        ("{\"\":\"\"}", "{\"\":\"\"}"),
        ("[\"a\",{\"x\":\"y\"},[0]]", "[\"a\",{\"x\":\"y\"},[0]]"),
    ]

    @Test("accepts what RFC 8259 allows", arguments: acceptCases.indices)
    func acceptsValidDocuments(_ index: Int) throws {
        let (text, compact) = Self.acceptCases[index]
        let value = try JSONParser.parse(text)
        #expect(CanonicalJSON.compact(value) == compact, "for \(text.debugDescription)")
    }

    @Test("parses strings, bytes and buffers alike")
    func parsesAllInputForms() throws {
        let text = "{\"k\": [1, \"two\", 3.0]}"
        let fromString = try JSONParser.parse(text)
        let fromBytes = try JSONParser.parse(Array(text.utf8))
        let fromBuffer = Array(text.utf8).withUnsafeBufferPointer { JSONParser.parse($0) }
        #expect(fromString == fromBytes)
        #expect(try fromBuffer.get() == fromString)
        let failure = Array("[1,]".utf8).withUnsafeBufferPointer { JSONParser.parse($0) }
        guard case .failure(let error) = failure else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.offset == 3)
    }

    @Test("decodes escapes to the right scalars")
    func decodesEscapes() throws {
        let value = try JSONParser.parse("\"a\\u0000b\\ud83d\\ude00c\\/\\t\"")
        let string = try #require(value.stringValue)
        #expect(Array(string.unicodeScalars.map(\.value)) == [0x61, 0x00, 0x62, 0x1F600, 0x63, 0x2F, 0x09])
    }

    @Test("keeps member order and duplicate keys as written")
    func keepsMemberOrderAndDuplicates() throws {
        let value = try JSONParser.parse("{\"z\":1,\"a\":2,\"z\":3}")
        let object = try #require(value.objectValue)
        #expect(object.keys == ["z", "a", "z"])
        #expect(object["z"] == 1)
        #expect(object.firstDuplicateKey == "z")
    }

    @Test("keeps decomposed strings byte for byte (no normalization)")
    func keepsDecomposedStrings() throws {
        let decomposed = "e\u{301}"
        let value = try JSONParser.parse("\"" + decomposed + "\"")
        let string = try #require(value.stringValue)
        #expect(Array(string.utf8) == [0x65, 0xCC, 0x81])
    }

    // MARK: - numbers

    @Test("keeps number literals exactly as written")
    func keepsNumberLiterals() throws {
        let literals = ["0", "-0", "1.0", "1.50", "1e5", "1E+05", "-0.0e-0", "9007199254740993", "-9223372036854775809", "1e400"]
        for literal in literals {
            let number = try #require(try JSONParser.parse(literal).numberValue)
            #expect(number.literal == literal)
            #expect(number.description == literal)
        }
    }

    @Test("tells integers from fractions and exponents")
    func classifiesIntegers() throws {
        #expect(JSONNumber(literal: "42").isInteger)
        #expect(JSONNumber(literal: "-7").intValue == -7)
        #expect(JSONNumber(literal: "9007199254740993").intValue == 9_007_199_254_740_993)
        #expect(JSONNumber(literal: "123456789012345678901234567890").isInteger)
        #expect(JSONNumber(literal: "123456789012345678901234567890").intValue == nil)
        #expect(!JSONNumber(literal: "1.0").isInteger)
        #expect(JSONNumber(literal: "1.0").intValue == nil)
        #expect(!JSONNumber(literal: "1e2").isInteger)
        #expect(!JSONNumber(literal: "1E2").isInteger)
        #expect(JSONNumber(5).literal == "5")
        #expect(JSONNumber(-5).literal == "-5")
    }

    @Test("integers past 2^53 survive parse → render → parse exactly")
    func bigIntegersRoundTrip() throws {
        let literals = [
            "9007199254740992", "9007199254740993", "9007199254740995", "-9007199254740993", "18446744073709551617",
            "123456789012345678901234567890", "-123456789012345678901234567890", "1.000000000000000000001", "1e400",
        ]
        let text = "{\"n\": [" + literals.joined(separator: ", ") + "], \"x\": 9007199254740993}"
        let first = try JSONParser.parse(text)
        let rendered = CanonicalJSON.render(first)
        let renderedText = String(decoding: rendered, as: UTF8.self)
        for literal in literals {
            #expect(renderedText.contains(literal + ",") || renderedText.contains(literal + "\n"), "\(literal) kept")
        }
        let second = try JSONParser.parse(rendered)
        #expect(second == first)
        let numbers = try #require(second["n"]?.arrayValue).compactMap(\.numberValue?.literal)
        #expect(numbers == literals)
        #expect(second["x"]?.numberValue?.literal == "9007199254740993")
        #expect(CanonicalJSON.render(second) == rendered)
    }

    // MARK: - RFC 8259 reject

    /// Documents RFC 8259 refuses.
    static let rejectCases: [String] = [
        "", " ", "\n",
        // trailing and misplaced commas
        "[1,]", "{\"a\":1,}", "[,1]", "[1,,2]", "{,}", "[,]", ",", "{\"a\":1,,\"b\":2}",
        // numbers
        "01", "-01", "00", "-", "--1", "+1", "1.", ".5", "-.5", "1.e5", "1e", "1e+", "1E-", "0x10", "1_000", "NaN", "Infinity",
        "-Infinity", "0.", "1ee5", "1e5.0",
        // literals
        "tru", "True", "nul", "NULL", "f", "truex", "nulll",
        // structure
        "[", "]", "{", "}", "[1", "{\"a\"", "{\"a\":", "{\"a\":1", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "'a'",
        "{\"a\":1 \"b\":2}", "{1:2}", "{null:1}", "[1]]", "{}}", "[1] 2", "1 2", "[]x", "{\"a\":1}{}", "[1:2]",
        // strings
        "\"abc", "\"", "\"\\\"", "\"\\x\"", "\"\\'\"", "\"\\U0041\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\u\"", "\"\\", "\"\\u004",
        // control characters raw in strings
        "\"a\tb\"", "\"a\nb\"", "\"a\rb\"", "\"\u{0}\"", "\"\u{1F}\"", "\"\u{0C}\"", "[\"\\n\",\"\u{1}\"]",
        // lone or broken surrogates
        "\"\\ud800\"", "\"\\udbff\"", "\"\\udc00\"", "\"\\udfff\"", "\"\\ud800\\u0041\"", "\"\\ud800x\"", "\"\\ud800\\ud800\"",
        "\"\\ude00\\ud83d\"", "\"\\ud800\\\"", "\"\\ud800\\n\"", "\"\\ud83d\\ude0\"",
        // whitespace RFC 8259 does not allow, comments, BOM (as text)
        "\u{0C}1", "\u{0B}1", "\u{A0}1", "1\u{A0}", "\u{FEFF}[]", "[1/*c*/]", "// c\n1", "[1]\u{0}",
    ]

    @Test("refuses what RFC 8259 refuses", arguments: rejectCases)
    func rejectsInvalidDocuments(_ text: String) {
        let error = parseError(text)
        #expect(error != nil, "\(text.debugDescription) should be refused")
        if let error {
            #expect(error.offset >= 0 && error.offset <= text.utf8.count)
            #expect(!error.reason.isEmpty)
        }
    }

    /// Byte sequences that are not UTF-8, inside otherwise valid strings.
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xE2, 0x82],
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x28, 0xA1],
    ]

    @Test("refuses invalid UTF-8 in a string", arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ bad: [UInt8]) {
        // plain string, string after an escape, and a key
        let plain: [UInt8] = [0x22, 0x61] + bad + [0x62, 0x22]
        let escaped: [UInt8] = [0x22, 0x5C, 0x6E] + bad + [0x22]
        let key: [UInt8] = Array("{\"".utf8) + bad + Array("\":1}".utf8)
        for document in [plain, escaped, key] {
            let error = parseError(document)
            #expect(error != nil, "\(document) should be refused")
        }
        #expect(parseError(plain)?.offset == 0, "the error names the string's opening quote")
    }

    @Test("refuses bytes outside strings that are not JSON")
    func rejectsStrayBytes() {
        #expect(parseError([0xEF, 0xBB, 0xBF, 0x5B, 0x5D])?.offset == 0, "BOM")
        #expect(parseError([0x5B, 0xC3, 0xA9, 0x5D])?.offset == 1)
        #expect(parseError([0x5B, 0x31, 0x5D, 0x00])?.offset == 3)
    }

    @Test("accepts every valid UTF-8 length in a string")
    func acceptsValidUTF8() throws {
        let bytes: [UInt8] = [
            0x22, 0x24, 0xC2, 0xA2, 0xE0, 0xA4, 0xB9, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xF0, 0x90, 0x8D, 0x88, 0xF4, 0x8F, 0xBF, 0xBF,
            0x22,
        ]
        let string = try #require(try JSONParser.parse(bytes).stringValue)
        #expect(string.unicodeScalars.map(\.value) == [0x24, 0xA2, 0x939, 0xD7FF, 0xE000, 0x10348, 0x10FFFF])
    }

    // MARK: - error positions

    @Test("names the line and column of the problem")
    func reportsLineAndColumn() throws {
        let cases: [(text: String, offset: Int, line: Int, column: Int)] = [
            ("[1,]", 3, 1, 4),
            ("{\n  \"a\": 1,\n}", 12, 3, 1),
            ("[\n  1,\n  01\n]", 9, 3, 3),
            ("[\r\n1,\r\n]", 7, 3, 1),
            ("[\"é\", x]", 7, 1, 8),
            ("{\"a\":\n\"x\u{1}\"}", 8, 2, 3),
            ("{\"a\": 1}\n\n  x", 12, 3, 3),
            ("  \"\\ud800\" ", 3, 1, 4),
            ("[\n\"ok\",\n\"\\q\"]", 9, 3, 2),
            ("", 0, 1, 1),
            ("[1,\n", 4, 2, 1),
            ("{\"a\":tru}", 5, 1, 6),
            ("[1.e3]", 1, 1, 2),
        ]
        for (text, offset, line, column) in cases {
            let error = try #require(parseError(text), "\(text.debugDescription) should be refused")
            #expect(error.offset == offset, "offset for \(text.debugDescription): \(error)")
            #expect(error.line == line, "line for \(text.debugDescription): \(error)")
            #expect(error.column == column, "column for \(text.debugDescription): \(error)")
            #expect(error.description == "line \(line), column \(column): \(error.reason)")
        }
    }

    @Test("gives reasons that say what went wrong")
    func reportsReasons() {
        #expect(parseError("01")?.reason.contains("leading zero") == true)
        #expect(parseError("\"\\ud800\"")?.reason.contains("surrogate") == true)
        #expect(parseError("\"\\udc00\"")?.reason.contains("surrogate") == true)
        #expect(parseError("\"a\u{1}\"")?.reason.contains("control character") == true)
        #expect(parseError([0x22, 0xFF, 0x22])?.reason.contains("UTF-8") == true)
        #expect(parseError("\"abc")?.reason.contains("unterminated") == true)
        #expect(parseError("[1] 2")?.reason.contains("after the document") == true)
        #expect(parseError("")?.reason.contains("end of input") == true)
    }

    @Test("error values compare and describe")
    func errorValue() {
        let error = JSONParseError(reason: "bad", offset: 3, line: 2, column: 1)
        #expect(error == JSONParseError(reason: "bad", offset: 3, line: 2, column: 1))
        #expect(error.description == "line 2, column 1: bad")
    }

    // MARK: - depth

    @Test("accepts nesting up to maximumDepth")
    func acceptsMaximumDepth() throws {
        let depth = JSONParser.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONParser.parse(arrays)
        var levels = 0
        while case .array(let elements) = value, let first = elements.first {
            levels += 1
            value = first
        }
        #expect(levels == depth - 1)
        let objects = String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        _ = try JSONParser.parse(objects)
        // and the canonical writer handles it too
        let reparsed = try JSONParser.parse(CanonicalJSON.render(try JSONParser.parse(arrays)))
        #expect(CanonicalJSON.compact(reparsed) == arrays)
    }

    @Test("nesting beyond maximumDepth is an error, not a crash")
    func rejectsExcessiveDepth() throws {
        let depth = JSONParser.maximumDepth + 1
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try #require(parseError(arrays))
        #expect(error.reason.contains("nesting"))
        #expect(error.offset == JSONParser.maximumDepth)
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parseError(objects)?.reason.contains("nesting") == true)
        let mixed = String(repeating: "[{\"k\":", count: depth) + "0" + String(repeating: "}]", count: depth)
        #expect(parseError(mixed)?.reason.contains("nesting") == true)
    }

    @Test("a very deep unterminated document fails fast without exhausting the stack")
    func rejectsHugeDepth() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
        let error = try #require(parseError(bytes))
        #expect(error.reason.contains("nesting"))
        let objects = Array(String(repeating: "{\"\":", count: 100_000).utf8)
        #expect(parseError(objects)?.reason.contains("nesting") == true)
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("literals build the matching cases")
    func literals() {
        let value: JSONValue = ["b": [1, "two", true, nil], "a": ["x": false]]
        #expect(value["b"]?.arrayValue == [.number(JSONNumber(1)), .string("two"), .bool(true), .null])
        #expect(value["a"]?["x"]?.boolValue == false)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("s")["k"] == nil)
    }

    @Test("accessors return nil for other types")
    func accessors() {
        let values: [JSONValue] = [.null, true, 1, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
        #expect(values.map(\.isNull) == [true, false, false, false, false, false])
        #expect(values.map { $0.boolValue != nil } == [false, true, false, false, false, false])
        #expect(values.map { $0.numberValue != nil } == [false, false, true, false, false, false])
        #expect(values.map { $0.stringValue != nil } == [false, false, false, true, false, false])
        #expect(values.map { $0.arrayValue != nil } == [false, false, false, false, true, false])
        #expect(values.map { $0.objectValue != nil } == [false, false, false, false, false, true])
    }

    @Test("object subscripts read the first member and edit in place")
    func objectSubscript() {
        var object = JSONObject([.init(key: "a", value: 1), .init(key: "b", value: 2), .init(key: "a", value: 3)])
        #expect(object["a"] == 1)
        #expect(object.count == 3)
        object["b"] = "changed"
        #expect(object.keys == ["a", "b", "a"])
        #expect(object["b"] == "changed")
        object["c"] = .null
        #expect(object.keys == ["a", "b", "a", "c"])
        object["b"] = nil
        #expect(object.keys == ["a", "a", "c"])
        object["zzz"] = nil
        #expect(object.count == 3)
        #expect(object.firstDuplicateKey == "a")
        #expect(JSONObject().firstDuplicateKey == nil)
        let literal: JSONObject = ["x": 1, "y": 2]
        #expect(literal.firstDuplicateKey == nil)
        #expect(literal.keys == ["x", "y"])
    }
}
