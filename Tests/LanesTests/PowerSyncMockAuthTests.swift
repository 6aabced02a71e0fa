import Corpus
import JSON
import PowerSyncWire
import Testing
import Transport

@testable import Lanes

/// powersync-ja/powersync-service packages/service-core/src/routes/auth.ts at
/// 332d649554ce0ffa6151f57bce920056f2c0b5ea, line 12: `/^(Token|Bearer) (\S+)$/`, case as
/// written; the SDKs send `Token` (powersync-kotlin common/src/commonMain/kotlin/com/powersync/sync/StreamingSyncClient.kt at
/// cd8c6aed, lines 236 and 268).
@Suite("PowerSync client lane's mock: the credential schemes PowerSync's service takes")
struct PowerSyncMockAuthTests {
    /// What the mock made of one checkpoint request sent with `authorization`.
    static func received(_ authorization: String) async throws -> PowerSync.Mock.Received? {
        let mock = try PowerSync.Mock.start(token: "t0k")
        let golden: JSONValue = ["checkpoint_request_id": "1", "client_id": "c"]
        mock.expect([
            PowerSync.Mock.Expectation(
                path: "/sync/checkpoint-request", golden: golden, status: 200,
                body: Array(#"{"data":{"checkpoint_request_id":"1"}}"#.utf8), contentType: "application/json")
        ])
        let session = try CurlSession()
        _ = try await session.send(
            "POST", mock.baseURL + "/sync/checkpoint-request",
            headers: [("Authorization", authorization), ("Content-Type", "application/json")],
            body: Array(CanonicalJSON.compact(golden).utf8))
        let (received, _) = mock.settle()
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

    /// An SDK's stream request as powersync-kotlin sends it (common/src/commonMain/kotlin/com/powersync/sync/
    /// StreamingSyncClient.kt at cd8c6aed; the core builds it in powersync-sqlite-core 60ebb70,
    /// crates/core/src/sync/streaming_sync.rs), against a golden with only buckets and client_id;
    /// the service allows any member (sync-stream.ts, `allowAdditional: true`, at 332d649).
    @Test("the mock judges a stream request by its bucket positions and client id, and a checkpoint request by its id's value")
    func byMeaning() {
        let golden: JSONValue = ["buckets": [["name": "a", "after": "2"], ["name": "b", "after": "0"]], "client_id": "c"]
        let sdk: JSONValue = [
            "buckets": [["name": "b", "after": "0"], ["name": "a", "after": "2"]], "client_id": "c", "include_checksum": true,
            "raw_data": true, "binary_data": false, "parameters": [:], "app_metadata": ["version": "1"],
            "streams": ["include_defaults": true, "subscriptions": []],
        ]
        #expect(PowerSync.Responder.meaning(sdk, path: "/sync/stream") == PowerSync.Responder.meaning(golden, path: "/sync/stream"))
        let behind: JSONValue = ["buckets": [["name": "a", "after": "1"], ["name": "b", "after": "0"]], "client_id": "c"]
        #expect(PowerSync.Responder.meaning(behind, path: "/sync/stream") != PowerSync.Responder.meaning(golden, path: "/sync/stream"))
        let number: JSONValue = ["checkpoint_request_id": 7, "client_id": "c", "extra": true]
        let string: JSONValue = ["client_id": "c", "checkpoint_request_id": "7"]
        #expect(
            PowerSync.Responder.meaning(number, path: "/sync/checkpoint-request")
                == PowerSync.Responder.meaning(string, path: "/sync/checkpoint-request"))
    }
}
