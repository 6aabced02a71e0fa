import KizunaWire
import Testing
import Transport

@testable import Runner

/// powersync-ja/powersync-service packages/service-core/src/routes/auth.ts at
/// 332d649554ce0ffa6151f57bce920056f2c0b5ea, line 12: `/^(Token|Bearer) (\S+)$/`, case as
/// written; the SDKs send `Token` (powersync-kotlin common/src/commonMain/kotlin/com/powersync/sync/StreamingSyncClient.kt at
/// cd8c6aed, lines 236 and 268).
@Suite("PowerSync client lane's mock: the credential schemes PowerSync's service takes")
struct PowerSyncMockAuthTests {
    /// What the mock made of one checkpoint request sent with `authorization`.
    static func received(_ authorization: String) async throws -> PowerSyncMock.Received? {
        let mock = try PowerSyncMock.start(token: "t0k")
        let golden: JSONValue = ["checkpoint_request_id": "1", "client_id": "c"]
        mock.expect([
            PowerSyncMock.Expectation(
                path: "/sync/checkpoint-request", golden: golden, status: 200,
                body: Array(#"{"data":{"checkpoint_request_id":"1"}}"#.utf8), contentType: "application/json")
        ])
        let session = try CurlSession()
        _ = try await session.send(
            "POST", mock.baseURL + "/sync/checkpoint-request",
            headers: [("Authorization", authorization), ("Content-Type", "application/json")],
            body: Array(CanonicalJSON.compact(golden).utf8))
        let (received, _) = mock.take()
        await mock.stop()
        return received.first
    }

    @Test("Token and Bearer with the token given at attach are taken alike")
    func bothSchemes() async throws {
        for authorization in ["Token t0k", "Bearer t0k"] {
            let received = try #require(try await Self.received(authorization))
            #expect(received.mismatch == nil, "\(authorization): \(received.mismatch ?? "")")
        }
    }

    @Test("another token, a lowercase scheme or a scheme the service does not take is a mismatch")
    func otherCredentials() async throws {
        for authorization in ["Token other", "bearer t0k", "token t0k", "Basic t0k", "Token  t0k"] {
            let received = try #require(try await Self.received(authorization))
            #expect(received.mismatch?.contains("Authorization") == true, "\(authorization)")
        }
    }
}
