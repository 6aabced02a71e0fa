import Corpus
import Foundation
import PowerSyncWire
import Testing

@testable import ReferencePowerSyncClient

/// The client's checkpoint modes as PowerSync's core and SDKs have them: requests mode reconciles
/// its counter at every connect (powersync-ja/powersync-sqlite-core at 60ebb70,
/// docs/write-checkpoint-requests.md, crates/core/src/sync/storage_adapter.rs
/// `initial_checkpoint_request_id`, crates/core/src/sync/streaming_sync.rs `EstablishSyncStream`);
/// legacy mode, the core's default (crates/core/src/sync/interface.rs `CheckpointMode`), asks
/// `/write-checkpoint2.json` after an upload (powersync-ja/powersync-kotlin at cd8c6aed,
/// common/src/commonMain/kotlin/com/powersync/sync/StreamingSyncClient.kt lines 209 and 227-251);
/// the apply gate reads the last *full* checkpoint seen (core crates/core/src/sync/sync_local.rs
/// `can_apply_sync_changes`, storage_adapter.rs `sync_local`).
@Suite("PowerSync client: checkpoint modes, the reconcile at connect and the apply gate")
struct CheckpointModeTests {
    static func client(_ store: String, _ service: ScriptedService, _ mode: PowerSync.CheckpointMode) throws -> PowerSync.Client {
        try PowerSync.Client(
            configuration: PowerSync.Attachment(
                store: store, baseURL: service.baseURL, token: "jwt", userID: "ada", clientID: "c 1", checkpointMode: mode))
    }

    static func answer(_ id: String) -> String { #"{"data":{"checkpoint_request_id":"\#(id)"}}"# }

    @Test(
        "the reconcile posts max(last requested, a concrete target, 1), seeds the counter with the answer, and the request continues after it"
    )
    func reconcileAtConnect() async throws {
        for (counter, target, sent) in [(nil, nil, "1"), (5, 7, "7"), (9, 7, "9"), (3, Int64.max, "3")] as [(Int64?, Int64?, String)] {
            let store = ScriptedService.store("reconcile")
            defer { ScriptedService.remove(store) }
            do {
                let database = try LocalDatabase(path: store)
                try database.set(PowerSync.Client.counterKey, counter)
                try database.set(PowerSync.Client.targetKey, target)
            }
            let service = try ScriptedService(["/sync/checkpoint-request": [Self.answer("42"), Self.answer("43")]])
            let client = try Self.client(store, service, .requests)
            let id = try await client.requestCheckpoint()
            await client.close()
            await service.stop()
            #expect(id == "43")
            #expect(
                service.requests.map(\.body) == [
                    #"{"checkpoint_request_id":"\#(sent)","client_id":"c 1"}"#, #"{"checkpoint_request_id":"43","client_id":"c 1"}"#,
                ], "counter \(counter.map(String.init) ?? "none"), target \(target.map(String.init) ?? "none")")
        }
    }

    @Test("every stream a requests-mode client opens is preceded by its reconcile; a legacy client opens it alone")
    func reconcileBeforeEachStream() async throws {
        let line = #"{"checkpoint":{"buckets":[],"last_op_id":"0"}}"# + "\n" + #"{"checkpoint_complete":{"last_op_id":"0"}}"# + "\n"
        for mode in [PowerSync.CheckpointMode.requests, .legacy] {
            let store = ScriptedService.store("streams")
            defer { ScriptedService.remove(store) }
            let service = try ScriptedService([
                "/sync/checkpoint-request": [Self.answer("1"), Self.answer("1")], "/sync/stream": [line, line],
            ])
            let client = try Self.client(store, service, mode)
            _ = try await client.sync()
            _ = try await client.sync()
            await client.close()
            await service.stop()
            let paths = service.requests.map { $0.target }
            #expect(
                paths
                    == (mode == .requests
                        ? ["/sync/checkpoint-request", "/sync/stream", "/sync/checkpoint-request", "/sync/stream"]
                        : ["/sync/stream", "/sync/stream"]),
                "\(mode)")
        }
    }

    @Test(
        "legacy mode refuses the app's checkpoint request with REQUESTS_OFF and sends nothing; an upload asks GET /write-checkpoint2.json for its target"
    )
    func legacyMode() async throws {
        let store = ScriptedService.store("legacy")
        defer { ScriptedService.remove(store) }
        let service = try ScriptedService([
            "/accord/upload": ["{}"], "/write-checkpoint2.json": [#"{"data":{"write_checkpoint":"58"}}"#],
        ])
        let client = try Self.client(store, service, .legacy)
        await #expect {
            _ = try await client.requestCheckpoint()
        } throws: { error in (error as? PowerSync.ClientError)?.protocolCode == "REQUESTS_OFF" }
        #expect(service.requests.isEmpty)
        _ = try await client.write(PowerSync.LocalWrite(op: .put, table: "todos", id: "t1", data: ["title": "a"]))
        let uploaded = try await client.upload()
        await client.close()
        await service.stop()
        #expect(uploaded.entries == 1 && uploaded.checkpointRequestID == nil)
        #expect(service.requests.map(\.target) == ["/accord/upload", "/write-checkpoint2.json?client_id=c%201"])
        #expect(service.requests.last?.method == "GET" && service.requests.last?.authorization == "Token jwt")
        let database = try LocalDatabase(path: store)
        #expect(try database.value(PowerSync.Client.targetKey) == 58)
    }

    @Test(
        "a local write clears the last seen checkpoint; a later full checkpoint without write_checkpoint applies once one with the target was seen"
    )
    func applyGateReadsLastSeen() async throws {
        let store = ScriptedService.store("gate")
        defer { ScriptedService.remove(store) }
        let put1 = #"{"checksum":1,"data":"{\"title\":\"a\"}","object_id":"t1","object_type":"todos","op":"PUT","op_id":"1"}"#
        let put2 = #"{"checksum":2,"data":"{\"title\":\"b\"}","object_id":"t2","object_type":"todos","op":"PUT","op_id":"2"}"#
        let put3 = #"{"checksum":4,"data":"{\"title\":\"c\"}","object_id":"t3","object_type":"todos","op":"PUT","op_id":"3"}"#
        func stream(_ last: Int, _ sum: Int, _ count: Int, _ writeCheckpoint: String?, after: Int, _ op: String) -> String {
            let written = writeCheckpoint.map { #","write_checkpoint":"\#($0)""# } ?? ""
            return #"{"checkpoint":{"buckets":[{"bucket":"b","checksum":\#(sum),"count":\#(count)}],"last_op_id":"\#(last)"\#(written)}}"#
                + "\n"
                + #"{"data":{"after":"\#(after)","bucket":"b","data":[\#(op)],"has_more":false,"next_after":"\#(last)"}}"# + "\n"
                + #"{"checkpoint_complete":{"last_op_id":"\#(last)"}}"# + "\n"
        }
        let service = try ScriptedService([
            "/sync/checkpoint-request": [Self.answer("1"), Self.answer("2"), Self.answer("2"), Self.answer("2")],
            "/accord/upload": ["{}"],
            "/sync/stream": [
                stream(1, 1, 1, "1", after: 0, put1), stream(2, 3, 2, "2", after: 1, put2), stream(3, 7, 3, nil, after: 2, put3),
            ],
        ])
        let client = try Self.client(store, service, .requests)
        _ = try await client.sync()
        _ = try await client.write(PowerSync.LocalWrite(op: .put, table: "todos", id: "t9", data: ["title": "mine"]))
        _ = try await client.upload()  // its own request is 2: the target
        _ = try await client.sync()  // write_checkpoint 2 reaches the target: applied, 2 seen
        let second = try await client.state(tables: ["todos"])
        _ = try await client.sync()  // no write_checkpoint: the 2 seen still covers the target
        let third = try await client.state(tables: ["todos"])
        await client.close()
        await service.stop()
        #expect(second.lastCheckpoint == "2")
        #expect(third.lastCheckpoint == "3" && third.rows["todos"]?["t3"] == ["title": "c"])
    }

    @Test(
        "custom mode posts the reconcile and the request to the app's backend with its own Bearer credential and reads its bare answer; the service sees none"
    )
    func customMode() async throws {
        let store = ScriptedService.store("custom")
        defer { ScriptedService.remove(store) }
        let backend = try ScriptedService([
            "/api/checkpoints": [#"{"checkpoint_request_id":"42"}"#, #"{"checkpoint_request_id":43}"#]
        ])
        let client = try PowerSync.Client(
            configuration: PowerSync.Attachment(
                store: store, baseURL: "http://127.0.0.1:9", token: "sync-jwt", userID: "ada", clientID: "c1", checkpointMode: .custom,
                checkpointBackend: PowerSync.CheckpointBackend(url: backend.baseURL + "/api/checkpoints", token: "app-session")))
        let id = try await client.requestCheckpoint()
        await client.close()
        await backend.stop()
        #expect(id == "43")
        #expect(backend.requests.map(\.authorization) == ["Bearer app-session", "Bearer app-session"])
        #expect(
            backend.requests.map(\.body) == [
                #"{"checkpoint_request_id":"1","client_id":"c1"}"#, #"{"checkpoint_request_id":"43","client_id":"c1"}"#,
            ])
    }

    @Test("the live stream's own reconnect, after the service ended it, reconciles again before it opens the stream")
    func liveReconnectReconciles() async throws {
        let store = ScriptedService.store("live")
        defer { ScriptedService.remove(store) }
        let line = #"{"checkpoint":{"buckets":[],"last_op_id":"0"}}"# + "\n" + #"{"checkpoint_complete":{"last_op_id":"0"}}"# + "\n"
        let service = try ScriptedService([
            "/sync/checkpoint-request": [Self.answer("1"), Self.answer("1")], "/sync/stream": [line],
        ])
        let client = try Self.client(store, service, .requests)
        _ = try await client.follow()
        // The service ends the stream; the client connects again: reconcile, then the stream (404 here, which ends it).
        var seen: [String] = []
        for _ in 0..<500 {
            seen = service.requests.map(\.target)
            if seen.count >= 4 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        await client.close()
        await service.stop()
        #expect(seen == ["/sync/checkpoint-request", "/sync/stream", "/sync/checkpoint-request", "/sync/stream"])
    }
}
