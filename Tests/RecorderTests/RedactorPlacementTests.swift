import Capture
import Corpus
import Testing

/// The placements a careless client or an attacker uses to carry a secret past a redactor that
/// compares names and values as written: each must come out redacted.
@Suite("Redaction of every placement: encoded and nested names, URLs, fragments and containers")
struct RedactorPlacementTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.AbCdEfGhIjKlMnOp"
    static let opaque = "Xk9fQ2Lr7TzWb4Yp1Nc8Vd3H"

    @Test("names are read decoded and part by part: brackets, dots, # and percent-encoding hide nothing")
    func names() {
        let policy = RedactionPolicy(keep: ["x[token]"])
        for name in ["user[password]", "pass%77ord", "api%6Bey", "session.apikey", "a#cookie", "user%5Bpassword%5D", "data[][secret]"] {
            #expect(policy.isSecret(name), "\(name)")
        }
        for name in ["user[name]", "cursor", "a.b", "%zz", "x%5Btoken%5D"] { #expect(!policy.isSecret(name), "\(name)") }
    }

    @Test("form bodies: bracketed and percent-encoded secret names lose their values")
    func forms() {
        let redactor = Redactor(policy: RedactionPolicy())
        let form = redactor.text("user[name]=ann&user[password]=hunter2&pass%77ord=hunter3&api%6Bey=k1")
        #expect(form == "user[name]=ann&user[password]=<redacted:secret:1>&pass%77ord=<redacted:secret:2>&api%6Bey=<redacted:secret:3>")
    }

    @Test("queries: encoded names, tokens inside encoded values, twice-encoded URLs")
    func queries() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(redactor.query("api%6Bey=k1&a=1") == "api%6Bey=<redacted:secret:1>&a=1")
        let redirect = redactor.query("redirect=https%3A%2F%2Fapp.example%2Fcb%3Faccess_token%3Dopaque-1%26state%3Ds")
        #expect(!redirect.contains("opaque-1"))
        #expect(redirect.hasPrefix("redirect=https://app.example/cb?access_token%3D<redacted:secret:2>"))
        let twice = redactor.query("next=%2Fcb%253Frefresh_token%253Dr-2")
        #expect(!twice.contains("r-2"), "\(twice)")
        #expect(redactor.query("q=plain%20words&n=2") == "q=plain%20words&n=2")
    }

    @Test("paths: JWT and token-shaped segments and ;token= parameters are replaced, UUIDs and words kept")
    func paths() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(redactor.url("/rest/v1/rpc/pull") == "/rest/v1/rpc/pull")
        #expect(redactor.url("/magic/\(Self.jwt)/open") == "/magic/<redacted:jwt:1>/open")
        #expect(redactor.url("/reset/\(Self.opaque)") == "/reset/<redacted:secret:1>")
        #expect(redactor.url("/files;jsessionid=abc;token=t-9/x") == "/files;jsessionid=abc;token=<redacted:secret:2>/x")
        let uuid = "/rest/v1/todos/00000000-0000-4000-8000-a10000000001"
        #expect(redactor.url(uuid) == uuid)
        #expect(redactor.url("/docs/checklist_items_2024.json") == "/docs/checklist_items_2024.json")
        #expect(redactor.url("/a/\(Self.jwt.replacingOccurrences(of: ".", with: "%2E"))") == "/a/<redacted:jwt:1>")
    }

    @Test("URL headers: fragments, userinfo and queries of Location are redacted like queries")
    func locations() {
        let redactor = Redactor(policy: RedactionPolicy())
        let location = redactor.header(name: "Location", value: "https://app.example/cb#access_token=a-1&refresh_token=r-1&type=bearer")
        #expect(location == "https://app.example/cb#access_token=<redacted:secret:1>&refresh_token=<redacted:secret:2>&type=bearer")
        #expect(
            redactor.header(name: "Referer", value: "https://u:pw-1@h.example/p?x=1") == "https://u:<redacted:secret:3>@h.example/p?x=1")
        #expect(redactor.header(name: "X-Next", value: "https://h.example/\(Self.opaque)") == "https://h.example/<redacted:secret:4>")
        #expect(redactor.header(name: "Link", value: "</p?token=t-2>; rel=next").contains("<redacted:secret:"))
    }

    @Test("text: a secret-named key's object or array value is replaced whole, closed or cut")
    func containers() {
        let redactor = Redactor(policy: RedactionPolicy())
        let ndjson =
            #"{"a":1,"tokens":["t-1","t-2"],"b":2}"# + "\n" + #"{"secret":{"k":"v-1","n":[1,{"x":"v-2"}]},"c":3}"# + "\n"
            + #"{"password":{"cut":"v-3"#
        let redacted = redactor.text(ndjson)
        for secret in ["t-1", "t-2", "v-1", "v-2", "v-3"] { #expect(!redacted.contains(secret), "\(secret) in \(redacted)") }
        #expect(redacted.contains(#""b":2}"#) && redacted.contains(#""c":3}"#))
        #expect(redacted.contains(#""tokens":"<redacted:secret:"#))
    }

    @Test("JSON nested past the parser's depth is redacted as text, containers under secret keys whole")
    func deepJSON() {
        let redactor = Redactor(policy: RedactionPolicy())
        let deep =
            String(repeating: "[", count: 600) + #"{"api_key":{"v":"deep-1"},"refresh_token":"deep-2"}"#
            + String(repeating: "]", count: 600)
        let encoded = String(decoding: redactor.encodedBody(Array(deep.utf8), contentEncoding: nil, complete: true).encoded, as: UTF8.self)
        #expect(!encoded.contains("deep-1") && !encoded.contains("deep-2"))
    }
}

/// What a review found past the first placements: each input below leaked before its fix.
@Suite("Redaction of the placements a review found: relative URLs with a scheme later on, multipart parts, quotes")
struct RedactorReviewTests {
    static let opaque = "Xk9fQ2Lr7TzWb4Yp1Nc8Vd3H"

    @Test("a target whose query holds another URL is still a path and a query")
    func laterScheme() {
        let redactor = Redactor(policy: RedactionPolicy())
        let redacted = redactor.url("/oauth/cb?access_token=a-1&next=https://app.example/home")
        #expect(redacted == "/oauth/cb?access_token=<redacted:secret:1>&next=https://app.example/home")
        #expect(!redactor.url("/x/\(Self.opaque)?next=https://h/").contains(Self.opaque))
        #expect(!redactor.header(name: "Location", value: "/login?session_token=s-2&return_to=https://h/").contains("s-2"))
    }

    @Test("a token standing as the URL's user name is replaced")
    func userName() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(
            redactor.header(name: "Location", value: "https://ghp_abc123@github.com/o/r") == "https://<redacted:secret:1>@github.com/o/r")
    }

    @Test("multipart/form-data: a secret-named part's value is replaced, others kept")
    func multipart() {
        let redactor = Redactor(policy: RedactionPolicy())
        let body =
            "--b\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na@b.c\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--b--\r\n"
        let redacted = redactor.text(body)
        #expect(!redacted.contains("hunter2"))
        #expect(redacted.contains("a@b.c"))
        #expect(redacted.contains("name=\"password\"\r\n\r\n<redacted:secret:1>\r\n--b--"))
    }

    @Test("a stray quote, quoted values and names joined by + hide nothing")
    func quotes() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(!redactor.text("title=12\" pizza&password=hunter2").contains("hunter2"))
        #expect(
            redactor.text("password=\"hunter 3\" token='t 4' n=1") == "password=\"<redacted:secret:2>\" token='<redacted:secret:3>' n=1")
        #expect(!redactor.text("new+password=hunter5").contains("hunter5"))
    }

    @Test("a placeholder-looking value that is not exactly one placeholder is a secret still")
    func looseShape() {
        let redactor = Redactor(policy: RedactionPolicy())
        #expect(redactor.header(name: "Cookie", value: "<redacted:a>; sid=REAL; z=>") == "<redacted:secret:1>")
    }

    @Test("numbering goes on after placeholders in use, ignoring absurd numbers")
    func absurdNumbers() {
        let redactor = Redactor(
            policy: RedactionPolicy(), continuingAfter: Array("<redacted:secret:9223372036854775807> <redacted:jwt:7>".utf8))
        #expect(redactor.secret("s-1") == "<redacted:secret:1>")
        #expect(redactor.placeholder(for: "t", kind: "jwt") == "<redacted:jwt:8>")
    }
}
