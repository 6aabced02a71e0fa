import JSON
import Testing

@Suite("JSON rewriter")
struct JSONRewriterTests {
    /// Checks one document against the tree reference: validity, bytes, capture, call order.
    static func check(_ text: String, capturing key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        check(Array(text.utf8), capturing: key, sourceLocation: sourceLocation)
    }

    static func check(_ bytes: [UInt8], capturing key: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let rules = MarkingRules()
        let reference = MarkingRules()
        let expected = RewriteReference.rewrite(bytes, reference, capturing: key)
        let got = runRewriter(bytes, rules, capturing: key)
        let shown = String(decoding: bytes, as: UTF8.self)
        #expect(got.prefixKept, "prefix changed for \(shown)", sourceLocation: sourceLocation)
        #expect(got.valid == (expected != nil), "validity of \(shown)", sourceLocation: sourceLocation)
        if let expected, got.valid {
            #expect(
                got.out == expected.bytes,
                "\(shown)\n got \(String(decoding: got.out, as: UTF8.self))\nwant \(String(decoding: expected.bytes, as: UTF8.self))",
                sourceLocation: sourceLocation)
            #expect(got.captured == expected.captured, "capture of \(shown)", sourceLocation: sourceLocation)
            #expect(rules.log == askingEachKeyOnce(reference.log), "rule calls for \(shown)", sourceLocation: sourceLocation)
        } else {
            #expect(got.out.isEmpty, "output left behind for \(shown)", sourceLocation: sourceLocation)
            #expect(got.captured == nil, sourceLocation: sourceLocation)
        }
    }

    @Test("scalars, whitespace and empty containers are compacted")
    func scalars() {
        for text in ["true", " false ", "\t\nnull\r\n", "-0", "1.5e-3", "-12E+7", "0.0", "[]", "{}", "[ ]", "{ }", #""""#, "[1 , 2,\t3]"] {
            Self.check(text)
        }
        #expect(runRewriter(Array(" [1, {\"a\" : \"b\"}] ".utf8), MarkingRules()).out == Array(#"[1,{"a":"b"}]"#.utf8))
    }

    @Test("escapes are decoded and re-encoded with only the mandatory ones")
    func escapes() {
        let text = #"{"k\u0065y":"a\/b\n\t\"\\\u00e9\ud83d\ude00\u001f\u007f","é":"日本"}"#
        Self.check(text)
        #expect(
            runRewriter(Array(text.utf8), MarkingRules()).out == Array("{\"key\":\"a/b\\n\\t\\\"\\\\é😀\\u001f\u{7F}\",\"é\":\"日本\"}".utf8))
    }

    @Test("secret members: null stays null, strings and compact sorted material are replaced")
    func secrets() {
        let text = #"{"tok":null,"token":"a\u0062","xtok":{"b":1,"a":[true,"x"]},"tok2":-1.50,"tok3":[],"tok4":false}"#
        Self.check(text)
        let expected =
            #"{"tok":null,"token":"<secret ab>","xtok":"<secret {\"a\":[true,\"x\"],\"b\":1}>","#
            + #""tok2":"<secret -1.50>","tok3":"<secret []>","tok4":"<secret false>"}"#
        #expect(runRewriter(Array(text.utf8), MarkingRules()).out == Array(expected.utf8))
    }

    @Test("copied members are compacted but never offered to the rules, even their nested keys")
    func copies() {
        let text = #"{"keep":{"tok":"x1","k\u0065ep":["x"]},"keepers":"\u0078x","other":"x"}"#
        Self.check(text)
        #expect(
            runRewriter(Array(text.utf8), MarkingRules()).out
                == Array(#"{"keep":{"tok":"x1","keep":["x"]},"keepers":"xx","other":"X"}"#.utf8))
    }

    @Test("strings are rewritten in arrays and nested objects, keys never")
    func rewrites() {
        Self.check(#"{"x":["ax",{"xx":"box","n":[["x\u0078"]]}],"y":"no"}"#)
        #expect(runRewriter(Array(#"{"x":"x"}"#.utf8), MarkingRules()).out == Array(#"{"x":"X"}"#.utf8))
    }

    @Test("duplicate keys are all kept and each treated")
    func duplicates() {
        Self.check(#"{"a":"x","a":"x","tok":1,"tok":"s","keep":"x","keep":"x"}"#)
    }

    @Test("rows repeat their keys: each is asked about once, up to 32 keys of up to 64 bytes")
    func keysAskedOnce() {
        let rules = MarkingRules()
        let row = #"{"id":1,"tok":"s","n\u0061me":"x"}"#
        _ = runRewriter(Array("[\(row),\(row),\(row)]".utf8), rules)
        #expect(rules.log.filter { $0.hasPrefix("key ") } == ["key id", "key tok", "key name"])
        let long = String(repeating: "k", count: 65)
        let many = (0..<40).map { "\"k\($0)\":1" }.joined(separator: ",") + ",\"\(long)\":1"
        let wide = MarkingRules()
        _ = runRewriter(Array("[{\(many)},{\(many)}]".utf8), wide)
        let asked = wide.log.filter { $0.hasPrefix("key ") }
        #expect(asked.count == 41 + 9, "the first 32 short keys once, the other 8 and the long one twice")
        #expect(asked.filter { $0 == "key " + long }.count == 2)
        Self.check("[{\(many)},{\(many)}]")
    }

    @Test("a repeated key is matched in the input only when it reads the same quoted")
    func predictedKeys() {
        // Keys decoded from escapes that hold a quote, a backslash or a control character must
        // not be matched against raw input: the same bytes there mean another key, or no key.
        Self.check(#"[{"a\"b":1},{"a"b":1}]"#)
        Self.check(#"[{"a\\b":"x"},{"a\b":"x"},{"a\\b":"x"}]"#)
        Self.check("[{\"a\\u0001\":1},{\"a\u{1}\":1}]")
        // A key that is a prefix of the predicted one, or continues past it.
        Self.check(#"[{"id":1,"name":"x"},{"i":1,"name":"x"},{"idx":1,"nam":"x"},{"id":1,"name":"x"}]"#)
        // Rows that start over, skip or reorder keys, and escaped spellings of a known key.
        Self.check(#"[{"a":1,"b":2,"c":3},{"a":1,"c":3},{"c":3,"a":1,"b":2},{"\u0061":1,"b":2}]"#)
        Self.check(#"{"client_id":"c1","rows":[{"client_id":"c2"}]}"#, capturing: "client_id")
    }

    @Test("capture: the first top-level member of that key, decoded, before the rules")
    func capture() {
        let cases: [(String, String, String?)] = [
            (#"{"id":"a\nb","id":"c"}"#, "id", "a\nb"),
            (#"{"id":1,"id":"c"}"#, "id", nil),
            (#"{"id":null}"#, "id", nil),
            (#"{"o":{"id":"inner"},"id":"outer"}"#, "id", "outer"),
            (#"[{"id":"in array"}]"#, "id", nil),
            (#"{"token":"secret value"}"#, "token", "secret value"),
            (#"{"keep":"kept x"}"#, "keep", "kept x"),
            (#"{"x":"lower x"}"#, "x", "lower x"),
            (#"{"\u0069d":"escaped key"}"#, "id", "escaped key"),
            (#"{"e\u0301":"decomposed"}"#, "é", nil),
            (#"{"id":"ok"} x"#, "id", nil),
            (#"{"id":"ok","bad":}"#, "id", nil),
        ]
        for (text, key, captured) in cases {
            Self.check(text, capturing: key)
            #expect(runRewriter(Array(text.utf8), MarkingRules(), capturing: key).captured == captured, "\(text)")
        }
    }

    @Test("refuses what the parser refuses and leaves the output as it was")
    func refusals() {
        let bad = [
            "", " ", "[1,]", #"{"a":1,}"#, "01", "-", "1.", "1e", "[1 2]", #"{"a" 1}"#, #"{1:2}"#, "tru", "nul", "[", "]",
            #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\x""#, #""\u12g4""#, "\"a\tb\"", "1 2", #"{"tok":[1,]}"#,
            #"{"keep":{"a":01}}"#, #"{"tok":nul}"#, #"{"keep":"\ud800"}"#, "\u{FEFF}1", "NaN", "[-]", "{\"a\":\"\u{1}\"}",
        ]
        for text in bad { Self.check(text) }
        let invalidUTF8: [[UInt8]] = [
            [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xFF, 0x5C, 0x6E, 0x22], Array(#"{"keep":""#.utf8) + [0x80, 0x22, 0x7D], Array(#"{"tok":""#.utf8) + [0xC3, 0x22, 0x7D],
            Array(#"{""#.utf8) + [0xE6, 0x97] + Array(#"":1}"#.utf8),
        ]
        for bytes in invalidUTF8 { Self.check(bytes) }
    }

    @Test("nesting: 512 levels pass and 513 fail, also under secret and copied members")
    func depth() {
        let limit = JSONParser.maximumDepth
        for depth in [limit - 1, limit, limit + 1] {
            Self.check(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            Self.check(String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1))
            for key in ["tok", "keep", "x"] {
                let inner = String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1)
                Self.check(#"{"\#(key)":\#(inner)}"#)
                Self.check(#"[{"\#(key)":\#(String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2))}]"#)
            }
        }
        let valid = runRewriter(Array((String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).utf8), MarkingRules())
        #expect(valid.valid)
        let deep = runRewriter(
            Array((String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)).utf8), MarkingRules())
        #expect(!deep.valid && deep.out.isEmpty)
    }
}
