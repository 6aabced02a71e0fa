import Corpus
import Foundation
import HTTP
import PowerSyncWire
import Synchronization
import Testing

@testable import ReferencePowerSyncClient

/// PowerSync's SDKs send `Authorization: Token <jwt>` (powersync-ja/powersync-kotlin
/// common/src/commonMain/kotlin/com/powersync/sync/StreamingSyncClient.kt at cd8c6aed, lines 236 and 268);
/// the service takes `Token` or `Bearer` (powersync-service routes/auth.ts at 332d649, line 12).
@Suite("PowerSync client: the credential scheme it sends")
struct CredentialSchemeTests {
    final class Seen: Sendable {
        let headers = Mutex<[String]>([])
    }

    @Test("a checkpoint request carries Authorization: Token <token>, as the SDKs send it")
    func tokenScheme() async throws {
        let seen = Seen()
        // Answered on the connection's thread, not the concurrency pool other tests keep busy.
        let server = try HTTPServer.start(HTTPServerConfiguration(host: "127.0.0.1", port: 0, gracePeriod: .milliseconds(100))) {
            request, stream in
            seen.headers.withLock { $0.append(request.headers["Authorization"] ?? "") }
            _ = stream.respond(
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Array(#"{"data":{"checkpoint_request_id":"1"}}"#.utf8)))
        }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("accord-scheme-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        let client = try PowerSync.Client(
            configuration: PowerSync.Attachment(
                store: store, baseURL: "http://127.0.0.1:\(server.port)", token: "jwt-1", userID: "ada", clientID: "c1",
                checkpointMode: .requests))
        let id = try await client.requestCheckpoint()
        await client.close()
        await server.stop()
        #expect(id == "1")
        // The reconcile at connect, then the request: both with the SDKs' scheme.
        #expect(seen.headers.withLock { $0 } == ["Token jwt-1", "Token jwt-1"])
    }
}
