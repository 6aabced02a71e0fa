import AccordTestSupport
import Foundation
import HTTP
import JSON
import KizunaWire
import Serve
import ServerContract
import Testing

/// HS256 JWTs: published vectors, Python's hmac as an independent oracle, expiry, tampering.
@Suite("JWT HS256")
struct JWTTests {
    /// RFC 7515 appendix A.1 (key given as a JWK `k`, payload with `exp` 1300819380).
    private static let rfcToken =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    private static let rfcKey = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
    /// The jwt.io example, secret "your-256-bit-secret".
    private static let jwtIOToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

    @Test("HMAC-SHA-256 matches the well-known fox vector")
    func hmacVector() {
        let mac = HMACSHA256.mac(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))
        let hex = mac.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    }

    @Test("the RFC 7515 A.1 token verifies before its exp and is expired at it")
    func rfcVector() throws {
        let key = JWTKey(bytes: try #require(Base64URL.decode(Self.rfcKey)))
        let claims = try key.verify(Self.rfcToken, now: Date(timeIntervalSince1970: 1_300_819_379))
        #expect(claims.payload["iss"] == "joe")
        #expect(claims.expiresAt == 1_300_819_380)
        #expect(throws: JWTError.expired("JWT expired")) { try key.verify(Self.rfcToken, now: Date(timeIntervalSince1970: 1_300_819_380)) }
    }

    @Test("the jwt.io token gives its sub as the identity's user")
    func jwtIOVector() throws {
        let identity = try JWTKey(secret: "your-256-bit-secret").identity(Self.jwtIOToken)
        #expect(identity == Identity(user: "1234567890", session: nil))
        #expect(throws: JWTError.self) { try JWTKey(secret: "another-secret").verify(Self.jwtIOToken) }
    }

    @Test("a minted token verifies in Python's hmac and Python's token verifies here")
    func pythonOracle() async throws {
        let key = JWTKey(secret: "s3cret-for-tests")
        let token = key.mint(for: Identity(user: "u-1", session: "c-1"), expiresAt: 4_102_444_800)
        let program = """
            import base64, hashlib, hmac, json, sys
            def b64(b): return base64.urlsafe_b64encode(b).rstrip(b'=').decode()
            def unb64(s): return base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
            h, p, s = sys.argv[1].split('.')
            ok = hmac.compare_digest(unb64(s), hmac.new(b's3cret-for-tests', (h + '.' + p).encode(), hashlib.sha256).digest())
            claims = json.loads(unb64(p))
            head = b64(json.dumps({'alg': 'HS256', 'typ': 'JWT'}).encode())
            body = b64(json.dumps({'sub': 'py-user', 'session_id': 'py-session', 'exp': 4102444800}).encode())
            sig = b64(hmac.new(b's3cret-for-tests', (head + '.' + body).encode(), hashlib.sha256).digest())
            print(ok, claims['sub'], claims['session_id'], claims['exp'], claims['role'])
            print(head + '.' + body + '.' + sig)
            """
        let output = try await PeerProcess.run("/usr/bin/env", ["python3", "-c", program, token])
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(lines.first == "True u-1 c-1 4102444800 authenticated")
        let pythonToken = try #require(lines.last)
        #expect(try key.identity(pythonToken) == Identity(user: "py-user", session: "py-session"))
    }

    @Test("alg none, other algorithms, tampering and bad encodings are refused")
    func refusals() throws {
        let key = JWTKey(secret: "k")
        let good = key.mint(JWTClaims(subject: "u", sessionID: nil))
        let parts = good.split(separator: ".").map(String.init)
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
        let hs512 = Base64URL.encode(Array(#"{"alg":"HS512","typ":"JWT"}"#.utf8))
        let crit = Base64URL.encode(Array(#"{"alg":"HS256","crit":["exp"]}"#.utf8))
        func signed(_ header: String) -> String {
            let input = header + "." + parts[1]
            return input + "." + Base64URL.encode(HMACSHA256.mac(key: Array("k".utf8), message: Array(input.utf8)))
        }
        let otherPayload = Base64URL.encode(Array(#"{"sub":"admin"}"#.utf8))
        for token in [
            "\(none).\(parts[1]).", signed(crit), signed(hs512), signed(none), "\(hs512).\(parts[1]).\(parts[2])",
            "\(parts[0]).\(otherPayload).\(parts[2])",
            "\(parts[0]).\(parts[1])",
            "\(parts[0]).\(parts[1]).\(parts[2])=", "\(parts[0]).\(parts[1]).\(parts[2]).x", "", "a.b.c", good.dropLast() + "A",
        ] {
            #expect(throws: JWTError.self, "\(token)") { try key.verify(token) }
        }
        #expect(try key.verify(good).subject == "u")
    }

    @Test("exp and nbf are honoured; a token without exp never expires; sub is required for an identity")
    func timeClaims() throws {
        let key = JWTKey(secret: "k")
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let expired = key.mint(JWTClaims(subject: "u", sessionID: "s", expiresAt: 1_999_999_999))
        #expect(throws: JWTError.expired("JWT expired")) { try key.verify(expired, now: now) }
        #expect((try? key.verify(expired, now: now)) == nil)
        let future = key.mint(JWTClaims(subject: "u", sessionID: "s", extra: ["nbf": 2_000_000_100]))
        #expect(throws: JWTError.self) { try key.verify(future, now: now) }
        #expect(try key.identity(key.mint(JWTClaims(subject: "u", sessionID: "s")), now: now) == Identity(user: "u", session: "s"))
        let noSub = key.mint(JWTClaims(payload: ["role": "authenticated"]))
        #expect(throws: JWTError.self) { try key.identity(noSub) }
        let textExp = key.mint(JWTClaims(subject: "u", sessionID: nil, extra: ["exp": "soon"]))
        #expect(throws: JWTError.self) { try key.verify(textExp) }
    }

    @Test("base64url round-trips every length and refuses non-canonical text")
    func base64URL() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("\u{FB}\u{FF}".utf8)) == "w7vDvw")
        #expect(Base64URL.decode("QQ==") == nil)
        #expect(Base64URL.decode("QR") == nil)
        #expect(Base64URL.decode("Q") == nil)
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.decode("QQ") == [0x41])
    }
}
