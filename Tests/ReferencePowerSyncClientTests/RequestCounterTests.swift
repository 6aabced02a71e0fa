import Corpus
import Foundation
import PowerSyncWire
import Testing

@testable import ReferencePowerSyncClient

/// The checkpoint-request counter at its end: ids are bigints, and a service may answer the
/// largest (another device of the same user and client sent it), which the client keeps.
@Suite("PowerSync client: the request counter at 2^63−1")
struct RequestCounterTests {
    @Test("a counter at 2^63−1 makes the next checkpoint request fail DOWNLOAD, naming the limit, instead of trapping")
    func counterAtTheLargestID() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("accord-counter-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        do {
            let database = try LocalDatabase(path: store)
            try database.set(PowerSync.Client.counterKey, Int64.max)
        }
        // The reconcile at connect posts the counter and is answered 2^63−1; the next id must fail before it is sent.
        let service = try ScriptedService(["/sync/checkpoint-request": [#"{"data":{"checkpoint_request_id":"9223372036854775807"}}"#]])
        let client = try PowerSync.Client(
            configuration: PowerSync.Attachment(
                store: store, baseURL: service.baseURL, token: "t", userID: "ada", clientID: "c1", checkpointMode: .requests))
        await #expect {
            _ = try await client.requestCheckpoint()
        } throws: { error in
            guard let error = error as? PowerSync.ClientError else { return false }
            return error.protocolCode == "DOWNLOAD" && error.message.contains("2^63−1")
        }
        #expect(service.requests.map(\.body) == [#"{"checkpoint_request_id":"9223372036854775807","client_id":"c1"}"#])
        await service.stop()
        await client.close()
    }
}
