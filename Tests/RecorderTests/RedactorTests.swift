import Capture
import Corpus
import JSON
import Testing

@Suite("Redaction of headers, queries, JSON and free text")
struct RedactorTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.AbCdEfGhIjKlMnOp"

    @Test("secret names: defaults, patterns, --redact additions and --keep exemptions, case-insensitively")
    func names() {
        let policy = RedactionPolicy(redact: ["X-Custom"], keep: ["Refresh_Token"])
        for name in ["Authorization", "APIKEY", "cookie", "Set-Cookie", "x-access-token", "client_secret", "Password", "x-custom"] {
            #expect(policy.isSecret(name), "\(name)")
        }
        for name in ["content-type", "cursor", "refresh_token", "client_id"] { #expect(!policy.isSecret(name), "\(name)") }
        #expect(policy.json["kept"] == ["refresh_token"])
    }

    @Test("headers: the credential of an authorization scheme becomes a placeholder, the same one each time")
    func headers() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(redactor.header(name: "Authorization", value: "Bearer \(Self.jwt)") == "Bearer <redacted:jwt:1>")
        #expect(redactor.header(name: "apikey", value: "sb_publishable_abc") == "<redacted:secret:1>")
        #expect(redactor.header(name: "apikey", value: Self.jwt) == "<redacted:jwt:1>")
        #expect(redactor.header(name: "Cookie", value: "a=1; b=2") == "<redacted:secret:2>")
        #expect(redactor.header(name: "X-Forwarded", value: "via \(Self.jwt)") == "via <redacted:jwt:1>")
        #expect(redactor.header(name: "Content-Type", value: "application/json") == "application/json")
    }

    @Test("queries: secret-named parameters and JWT-shaped values are replaced, the rest kept in order")
    func queries() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(
            redactor.query("a=1&access_token=abc&id_token=\(Self.jwt)&b&x=\(Self.jwt)")
                == "a=1&access_token=<redacted:secret:1>&id_token=<redacted:jwt:1>&b&x=<redacted:jwt:1>")
    }

    @Test("JSON: values under secret keys (any type) and JWTs inside strings are replaced; null stays null")
    func json() throws {
        let redactor = Redactor(policy: RedactionPolicy())
        let value = try JSONParser.parse(
            #"{"refresh_token":"r1","secrets":{"a":1},"password":null,"rows":[{"note":"t=\#(Self.jwt)","pin_token":42}],"n":1}"#)
        let redacted = redactor.json(value)
        #expect(redacted["refresh_token"] == "<redacted:secret:1>")
        #expect(redacted["secrets"] == "<redacted:secret:2>")
        #expect(redacted["password"] == .null)
        #expect(redacted["rows"]?.arrayValue?.first?["note"] == "t=<redacted:jwt:1>")
        #expect(redacted["rows"]?.arrayValue?.first?["pin_token"] == "<redacted:secret:3>")
        #expect(redacted["n"] == .number(JSONNumber(1)))
    }

    @Test("free text: NDJSON lines, truncated JSON and form bodies lose their secrets")
    func text() {
        let redactor = Redactor(policy: RedactionPolicy())
        let ndjson = "{\"a\":1,\"token\":\"s1\"}\n{\"api_secret\": 77, \"b\":\"x\"}\n{\"refresh_token\":\"cut-of"
        let redacted = redactor.text(ndjson)
        #expect(!redacted.contains("s1") && !redacted.contains("77") && !redacted.contains("cut-of"))
        #expect(redacted.contains("\"b\":\"x\""))
        #expect(redacted.contains("\"api_secret\": \"<redacted:secret:"))
        let form = redactor.text("grant_type=password&password=hunter2&username=u")
        #expect(form == "grant_type=password&password=<redacted:secret:4>&username=u")
        #expect(redactor.text("see \(Self.jwt).") == "see <redacted:jwt:1>.")
        #expect(redactor.text("version 1.2.3 at api.example.com") == "version 1.2.3 at api.example.com")
    }

    @Test("free text: a secret pair after a long string is found at every length and alignment of that string")
    func pairsAfterLongStrings() {
        // The string scan takes eight and 32 bytes a step: a closing quote, escaped quote or
        // backslash at any offset must still end (or not end) the string where it does.
        let fillers: [(String, String)] = [("", ""), ("\\\"", "\\\""), ("\\\\", "\\\\"), ("=", "=")]
        for length in 0..<140 {
            for (index, (insert, kept)) in fillers.enumerated() {
                let redactor = Redactor(policy: RedactionPolicy())
                let base = String(repeating: "lorem ipsum ", count: 12).prefix(length)
                let at = base.index(base.startIndex, offsetBy: length * index / fillers.count)
                let pad = String(base[..<at]) + insert + String(base[at...])
                let text = "{\"pad\":\"\(pad)\",\"access_token\":\"SECRET\(length)\"}\n{\"n\":\"\(pad)\"}"
                let redacted = redactor.text(text)
                #expect(!redacted.contains("SECRET"), "length \(length), filler \(index)")
                #expect(redacted.hasPrefix("{\"pad\":\"\(String(base[..<at]))\(kept)"), "length \(length), filler \(index)")
                #expect(redacted.hasSuffix("{\"n\":\"\(pad)\"}"), "length \(length), filler \(index)")
            }
        }
    }

    @Test("placeholders are counters per kind, never derived from the secret")
    func placeholders() {
        let redactor = Redactor(policy: RedactionPolicy(), capacity: 1)
        #expect(redactor.secret("a") == "<redacted:secret:1>")
        #expect(redactor.secret("a") == "<redacted:secret:1>")
        #expect(redactor.secret("b") == "<redacted:secret:2>")
        #expect(redactor.secret("b") == "<redacted:secret:3>")
        #expect(redactor.secret("") == "")
    }
}
