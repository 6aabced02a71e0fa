import Capture
import Corpus
import JSON
import Testing

/// SplitMix64 for the recorder's fuzz tests.
struct RecorderRNG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

@Suite("Redactor bodies: one-pass encoding against the tree path")
struct RedactorBodyTests {
    static let keys = [
        "refresh_token", "password", "apikey", "access_token", "note", "rows", "client_id", "cursor", "Authorization", "data", "é",
        "user_password", "x",
    ]

    static func jwt(_ rng: inout RecorderRNG) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        func run(_ count: Int) -> String { String((0..<count).map { _ in rng.pick(alphabet) }) }
        return "eyJ" + run(5 + rng.below(12)) + "." + run(2 + rng.below(10)) + "." + run(rng.below(10))
    }

    static func text(_ rng: inout RecorderRNG) -> String {
        switch rng.below(9) {
        case 0: return jwt(&rng)
        case 1: return "Bearer \(jwt(&rng))"
        case 2: return "grant=x&password=hunter\(rng.below(5))&token=\(jwt(&rng))"
        case 3: return "password: p\(rng.below(4)), \"apikey\": \"k\(rng.below(4))\""
        case 4: return "plain \(rng.below(100)) é \"quoted\" \\ \n"
        case 5: return "a=b; c:d"
        case 6: return "<redacted:secret:1>"
        default: return "v\(rng.below(6))"
        }
    }

    static func value(_ rng: inout RecorderRNG, depth: Int) -> JSONValue {
        switch depth > 3 ? rng.below(4) : rng.below(7) {
        case 0: return rng.pick([.null, true, false, .number(JSONNumber(literal: "-1.5e3"))])
        case 1: return .number(JSONNumber(rng.below(1000)))
        case 2, 3: return .string(text(&rng))
        case 4: return .array((0..<rng.below(4)).map { _ in value(&rng, depth: depth + 1) })
        default:
            let members = (0..<rng.below(5)).map { _ in JSONObject.Member(key: rng.pick(keys), value: value(&rng, depth: depth + 1)) }
            return .object(JSONObject(members))
        }
    }

    static func compact(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        CanonicalJSON.writeCompact(value, into: &out, sortingKeys: false)
        return out
    }

    static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        CanonicalJSON.appendString(text, to: &out)
        return out
    }

    @Test("valid JSON bodies: the same bytes, placeholders and captured client_id as parse, json(_:) and writeCompact")
    func validBodies() throws {
        var rng = RecorderRNG(state: 0xB0D1E5)
        for round in 0..<1_500 {
            let tree = JSONValue.object(
                JSONObject(
                    [JSONObject.Member(key: "client_id", value: .string("c\(round)"))]
                        + (Self.value(&rng, depth: 0).objectValue?.members ?? [])))
            let body = round % 3 == 0 ? CanonicalJSON.render(tree) : Self.compact(round % 5 == 0 ? .array([tree, tree]) : tree)
            let fast = Redactor(policy: RedactionPolicy(keep: round % 4 == 0 ? ["password"] : []))
            let slow = Redactor(policy: fast.policy)
            let (encoded, captured) = fast.encodedBody(body, contentEncoding: nil, complete: true, capturing: "client_id")
            let parsed = try JSONParser.parse(body)
            let expected = Self.compact(slow.json(parsed))
            #expect(encoded == expected, "\(String(decoding: body, as: UTF8.self))\n got \(String(decoding: encoded, as: UTF8.self))")
            #expect(captured == parsed.objectValue?["client_id"]?.stringValue)
        }
    }

    @Test("known bodies: JWTs, refresh tokens, object-valued passwords, apikeys in nested arrays")
    func knownBodies() {
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.AbCdEfGhIjKlMnOp"
        let body = #"{"refresh_token":"r1","password":{"old":"a","new":"b"},"rows":[[{"apikey":"k"},"Bearer \#(token)"]],"n":1}"#
        let (encoded, _) = Redactor(policy: RedactionPolicy()).encodedBody(Array(body.utf8), contentEncoding: nil, complete: true)
        let expected =
            #"{"refresh_token":"<redacted:secret:1>","password":"<redacted:secret:2>","#
            + #""rows":[[{"apikey":"<redacted:secret:3>"},"Bearer <redacted:jwt:1>"]],"n":1}"#
        #expect(String(decoding: encoded, as: UTF8.self) == expected)
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(redactor.encodedBody([], contentEncoding: nil, complete: true).encoded == Array("null".utf8))
        #expect(
            redactor.encodedBody([0x80, 0x81], contentEncoding: nil, complete: true).encoded
                == Self.quoted("<2 bytes, not UTF-8, not recorded>"))
        #expect(
            redactor.encodedBody([1, 2, 3], contentEncoding: "GZip", complete: true).encoded
                == Self.quoted("<3 bytes, content-encoding GZip, not recorded>"))
        #expect(redactor.encodedBody(Array("{}".utf8), contentEncoding: "identity", complete: true).encoded == Array("{}".utf8))
    }

    /// The text path's expectation: the JSON string of `text(_:)`, or the not-UTF-8 note.
    static func textExpectation(_ body: [UInt8], _ redactor: Redactor) -> [UInt8] {
        guard let text = String(validating: body, as: UTF8.self) else { return quoted("<\(body.count) bytes, not UTF-8, not recorded>") }
        return quoted(redactor.text(text))
    }

    /// NDJSON, truncated JSON and JSON with trailing garbage, built from random documents.
    static func invalidBody(_ rng: inout RecorderRNG) -> [UInt8] {
        let lines = (0...rng.below(3)).map { _ in
            compact(.object(JSONObject([JSONObject.Member(key: rng.pick(keys), value: value(&rng, depth: 1))])))
        }
        var body = Array(lines.joined(separator: [0x0A]))
        switch rng.below(3) {
        case 0: body = Array(body.prefix(max(1, rng.below(body.count))))
        case 1: body += Array(" trailing password=tail\(rng.below(3))".utf8)
        default: body += [0x0A]
        }
        return body
    }

    @Test("bodies cut at the limit: the JSON string of text(_:) on a fresh redactor, without the token-shaped run they end in")
    func textBodies() {
        var rng = RecorderRNG(state: 0x7E47)
        for _ in 0..<1_000 {
            let body = Self.invalidBody(&rng)
            let fast = Redactor(policy: RedactionPolicy())
            let slow = Redactor(policy: RedactionPolicy())
            let encoded = fast.encodedBody(body, contentEncoding: nil, complete: false).encoded
            let kept = Array(body.prefix(body.withUnsafeBufferPointer(Redactor.safePrefix)))
            #expect(encoded == Self.textExpectation(kept, slow), "\(String(decoding: body, as: UTF8.self))")
            if let last = kept.last { #expect(!Self.tokenBytes.contains(last)) }
        }
    }

    static let tokenBytes = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.%+/=~".utf8))

    @Test("a JWT cut at the body limit keeps neither its header nor its payload")
    func cutJWT() throws {
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlLWNhbmFyeQ"
        let body = Array(#"{"note":"a","access":"\#(jwt)"}"#.utf8)
        for cut in 10..<body.count {
            let encoded = Redactor(policy: RedactionPolicy()).encodedBody(Array(body.prefix(cut)), contentEncoding: nil, complete: false)
            let text = String(decoding: encoded.encoded, as: UTF8.self)
            #expect(!text.contains("eyJhbGci") && !text.contains("eyJzdWIi") && !text.contains("c2lnbmF0"), "cut at \(cut): \(text)")
        }
    }

    @Test("complete bodies that are not JSON: the same text as text(_:) once the redactor has seen the same secrets")
    func completeTextBodiesSharedRedactor() {
        var rng = RecorderRNG(state: 0x7E48)
        for _ in 0..<1_000 {
            let body = Self.invalidBody(&rng)
            if (try? JSONParser.parse(body)) != nil { continue }
            let redactor = Redactor(policy: RedactionPolicy())
            let expected = Self.textExpectation(body, redactor)
            #expect(redactor.encodedBody(body, contentEncoding: nil, complete: true).encoded == expected)
        }
    }

    @Test("large text bodies (escaped on a second thread): the same bytes as text(_:), with and without secrets")
    func largeTextBodies() {
        var rng = RecorderRNG(state: 0x7E49)
        var lines: [String] = []
        var size = 0
        while size < 300 * 1024 {
            let line = #"{"seq":\#(lines.count),"event":"token","text":"lorem \"ipsum\" dolor\tsit é"}"#
            lines.append(line)
            size += line.utf8.count + 1
        }
        for secret in [nil, "password=hunter2", #""refresh_token": "r-1""#, "Bearer \(Self.jwt(&rng))"] {
            var text = lines
            if let secret { text.insert(secret, at: rng.below(text.count)) }
            let body = Array(text.joined(separator: "\n").utf8)
            #expect(body.count >= 256 * 1024)
            let encoded = Redactor(policy: RedactionPolicy()).encodedBody(body, contentEncoding: nil, complete: true).encoded
            let expected = Self.textExpectation(body, Redactor(policy: RedactionPolicy()))
            #expect(encoded == expected, "secret \(secret ?? "none")")
            if let secret { #expect(!String(decoding: encoded, as: UTF8.self).contains(secret)) }
        }
    }

    @Test("a complete body that fails to parse is numbered as text(_:) numbers it on a fresh redactor")
    func failedParseLeavesNoPlaceholders() {
        // The one-pass rewriter meets the array-valued password on line 1 before it fails on line 2.
        let body = Array("{\"password\":[1]}\n{\"token\":\"t\"}".utf8)
        // A failed pass must not number "[1]" secret:1, which would make "t" secret:2 in a recording without secret:1.
        let encoded = Redactor(policy: RedactionPolicy()).encodedBody(body, contentEncoding: nil, complete: true).encoded
        let expected = Self.quoted(Redactor(policy: RedactionPolicy()).text(String(decoding: body, as: UTF8.self)))
        #expect(String(decoding: encoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
