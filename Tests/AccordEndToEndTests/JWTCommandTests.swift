import AccordTestSupport
import Corpus
import Foundation
import HTTP
import JSON
import KizunaWire
import Testing

@testable import Lanes

/// `accord jwt` run as a binary: its tokens are accepted by `accord serve` and by the client
/// lane's mock, and refused once `exp` has passed (judged at a given time, or minted already expired).
@Suite("accord jwt", .serialized)
struct JWTCommandTests {
    static let user = "00000000-0000-4000-8000-a10000000001"
    static let client = "00000000-0000-4000-8000-c10000000001"

    /// Runs `accord jwt` and returns the token it printed.
    static func mint(_ arguments: [String]) async throws -> String {
        let result = try await AccordBinary.run(["jwt"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// POSTs a pull for the user's todos with `token` and returns the HTTP status curl saw.
    static func pullStatus(port: Int, token: String) throws -> Int {
        let pull = #"{"buckets":[{"params":{"owner_id":"\#(user)"},"table":"todos"}],"cursor":"0","schema_version":1}"#
        return try curl([
            "-X", "POST", "http://127.0.0.1:\(port)/rest/v1/rpc/pull", "-H", "Authorization: Bearer \(token)", "-H",
            "Content-Type: application/json", "-H", "Content-Profile: kizunasync", "-d", pull,
        ])
    }

    static func curl(_ arguments: [String]) throws -> Int {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: output, as: UTF8.self)) ?? -1
    }

    @Test("a token from accord jwt is accepted by accord serve, and one minted already expired is refused with 401")
    func serveAcceptsAndRefuses() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "jwt-e2e-secret", "--fixtures"])
        defer { _ = served.stop() }
        let seeded = try Self.curl([
            "-X", "POST", "http://127.0.0.1:\(served.port)/accord/fixtures/seed", "-H", "Content-Type: application/json", "-d",
            #"{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id"}},"tombstone_ttl_days":30}}"#,
        ])
        #expect(seeded == 200)
        let token = try await Self.mint(["--secret", "jwt-e2e-secret", "--sub", Self.user, "--session", Self.client, "--expires-in", "1h"])
        #expect(try Self.pullStatus(port: served.port, token: token) == 200)
        let expired = try await Self.mint(["--secret", "jwt-e2e-secret", "--sub", Self.user, "--expires-in", "-1s"])
        #expect(try Self.pullStatus(port: served.port, token: expired) == 401)
        let forged = try await Self.mint(["--secret", "another-secret", "--sub", Self.user])
        #expect(try Self.pullStatus(port: served.port, token: forged) == 401)
    }

    @Test("a token minted with --expires-in 1s verifies until its exp and is refused from exp on, as accord serve judges it")
    func expiresAfterItsLifetime() async throws {
        let before = Date().timeIntervalSince1970.rounded(.down)
        let token = try await Self.mint(["--secret", "s", "--sub", Self.user, "--session", Self.client, "--expires-in", "1s"])
        let key = JWTKey(secret: "s")
        let claims = try key.verify(token, now: Date(timeIntervalSince1970: before))
        let exp = try #require(claims.expiresAt)
        #expect(exp >= before + 1 && exp <= Date().timeIntervalSince1970.rounded(.down) + 1)
        #expect(claims.subject == Self.user && claims.sessionID == Self.client && claims.payload["role"]?.stringValue == "authenticated")
        #expect(throws: JWTError.self) { try key.verify(token, now: Date(timeIntervalSince1970: exp)) }
        #expect(try key.identity(token, now: Date(timeIntervalSince1970: exp - 1)).user == Self.user)
    }

    @Test("with the client lane's secret and no expiry, accord jwt mints the very token the lane hands its driver, which the mock accepts")
    func clientLaneMockAccepts() async throws {
        // The lane's key is a fixed, non-secret string (KizunaSync.jwtKey): the mock compares the
        // Authorization header with the token given at open, byte for byte; it does not verify JWTs.
        let token = try await Self.mint([
            "--secret", "accord-client-lane: the mock does not verify, the driver only echoes", "--sub", Self.user, "--session",
            Self.client, "--expires-in", "never",
        ])
        let lanes = KizunaSync.jwtKey.mint(JWTClaims(subject: Self.user, sessionID: Self.client))
        #expect(token == lanes)
        let match = RequestMatch(expected: .init(jwt: lanes, apikey: KizunaSync.apikey, clientID: Self.client))
        func request(_ bearer: String) -> HTTPRequest {
            var headers = HTTPHeaders()
            headers.add("Authorization", "Bearer \(bearer)")
            headers.add("apikey", KizunaSync.apikey)
            headers.add("Content-Type", "application/json")
            headers.add("Content-Profile", "kizunasync")
            headers.add("Accept", "application/json")
            return HTTPRequest(method: "POST", target: "/rest/v1/rpc/pull", headers: headers, body: [])
        }
        let pull = try JSONParser.parse(
            Array(#"{"buckets":[{"params":{"owner_id":"\#(Self.user)"},"table":"todos"}],"cursor":"0","schema_version":1}"#.utf8))
        var accepted = request(token)
        accepted.body = Array(CanonicalJSON.compact(pull).utf8)
        #expect(match.mismatch(accepted, rpc: .pull, golden: pull) == nil)
        let later = try await Self.mint([
            "--secret", "accord-client-lane: the mock does not verify, the driver only echoes", "--sub", Self.user, "--session",
            Self.client, "--expires-in", "-1s",
        ])
        var refused = request(later)
        refused.body = accepted.body
        #expect(match.mismatch(refused, rpc: .pull, golden: pull)?.message == "header Authorization is wrong")
    }

    @Test("accord jwt refuses a missing secret or sub and an unreadable --expires-in with exit 64, never echoing the secret")
    func usage() async throws {
        let noSecret = try await AccordBinary.run(["jwt", "--sub", Self.user])
        #expect(noSecret.status == 64 && noSecret.stderr.contains("ACCORD_JWT_SECRET"))
        let noSub = try await AccordBinary.run(["jwt", "--secret", "hush-canary"])
        #expect(noSub.status == 64 && noSub.stderr.contains("--sub") && !noSub.stderr.contains("hush-canary"))
        for bad in ["1w", "", "1.5h", "h", "--", "99999999999s"] {
            let result = try await AccordBinary.run(["jwt", "--secret", "hush-canary", "--sub", Self.user, "--expires-in", bad])
            #expect(result.status == 64, "\(bad)")
            #expect(!result.stderr.contains("hush-canary") && result.stdout.isEmpty, "\(bad)")
        }
        // A value left out: the option after it is not taken as the value, and what follows
        // (here the secret) is never echoed as an unexpected argument.
        let leftOut = try await AccordBinary.run(["jwt", "--sub", "--secret", "hush-canary"])
        #expect(leftOut.status == 64 && leftOut.stderr.contains("missing value for '--sub <user>'"), "\(leftOut.stderr)")
        #expect(!leftOut.stderr.contains("hush-canary") && leftOut.stdout.isEmpty)
        let help = try await AccordBinary.run(["help", "jwt"])
        #expect(help.status == 0 && help.stdout.contains("--expires-in <duration>"))
    }
}
