import Corpus
import Foundation
import JSON
import PowerSyncWire
import SQLite
import Testing

@testable import ReferencePowerSync

/// The embedded PowerSync service on its own: op numbering and checksums, write checkpoints that
/// wait for replication, diffs on an open stream, and checkpoint-request ids keeping the greatest.
@Suite("embedded PowerSync service")
struct PowerSyncServiceTests {
    static func put(_ bucket: String, _ id: String, _ checksum: JSONValue) -> SourceChange {
        .put(bucket: bucket, objectType: "todos", objectID: id, data: "{}", checksum: checksum)
    }

    static func stream(_ service: PowerSync.Service, after: [String: Int64] = [:]) -> StreamCursor {
        let positions = after.map { SyncStreamRequest.BucketPosition(name: $0.key, after: OpID($0.value) ?? .zero) }
        return StreamCursor(userID: "ada", request: SyncStreamRequest(buckets: positions))
    }

    @Test("ops are numbered in commit order; a bucket's checksum wraps as u32 and a CLEAR replaces the sum")
    func checksums() async throws {
        let service = try PowerSync.Service()
        try await service.apply(
            SourceCommit(changes: [
                .grant(bucket: "b", userID: "ada", priority: nil), Self.put("b", "1", 4_294_967_295), Self.put("b", "2", 2),
                .clear(bucket: "b", checksum: 7), Self.put("b", "3", -1),
            ]))
        var cursor = Self.stream(service)
        let lines = try await service.answer(&cursor)
        guard case .checkpoint(let checkpoint) = lines.first else {
            Issue.record("the first line is a checkpoint: \(lines)")
            return
        }
        #expect(checkpoint.lastOpID == OpID(4))
        #expect(checkpoint.buckets == [BucketChecksum(bucket: "b", checksum: Checksum(6), count: 4)])
        #expect(lines.last == .checkpointComplete(lastOpID: OpID(4) ?? .zero))
        #expect(try await service.answer(&cursor).isEmpty, "nothing changed, nothing to say")
    }

    @Test("a write checkpoint made before replication is acknowledged only once replication passes it, on the open stream")
    func writeCheckpointWaitsForReplication() async throws {
        let service = try PowerSync.Service()
        try await service.apply(SourceCommit(changes: [.grant(bucket: "b", userID: "ada", priority: 1), Self.put("b", "1", 1)]))
        try await service.apply(SourceCommit(changes: [Self.put("b", "2", 2)], replicated: false))
        #expect(try await service.writeCheckpoint(userID: "ada").writeCheckpoint == OpID(1))
        var cursor = Self.stream(service)
        guard case .checkpoint(let first) = try await service.answer(&cursor).first else {
            Issue.record("a checkpoint first")
            return
        }
        #expect(first.writeCheckpoint == nil && first.lastOpID == OpID(1))
        try await service.replicate()
        guard case .checkpointDiff(let diff) = try await service.answer(&cursor).first else {
            Issue.record("a diff after replication")
            return
        }
        #expect(diff.writeCheckpoint == OpID(1) && diff.lastOpID == OpID(2))
        #expect(diff.updatedBuckets == [BucketChecksum(bucket: "b", checksum: Checksum(3), count: 2, priority: 1)])
        #expect(diff.removedBuckets.isEmpty)
    }

    @Test("a revoked bucket is removed by the next diff, and a bucket the checkpoint never had is not")
    func revoke() async throws {
        let service = try PowerSync.Service()
        try await service.apply(
            SourceCommit(changes: [.grant(bucket: "a", userID: "ada", priority: nil), .grant(bucket: "b", userID: "ada", priority: nil)]))
        try await service.apply(SourceCommit(changes: [Self.put("other", "1", 1)]))
        var cursor = Self.stream(service)
        _ = try await service.answer(&cursor)
        try await service.apply(SourceCommit(changes: [.revoke(bucket: "b", userID: "ada")]))
        guard case .checkpointDiff(let diff) = try await service.answer(&cursor).first else {
            Issue.record("a diff after the revoke")
            return
        }
        #expect(diff.removedBuckets == ["b"])
    }

    @Test("checkpoint-request ids keep the greatest per user and client, exact to 2^63-1")
    func requestIDs() async throws {
        let service = try PowerSync.Service()
        try await service.apply(SourceCommit(changes: [.checkpointRequest(userID: "ada", clientID: "phone", id: "42")]))
        func ask(_ id: Int64, client: String = "phone") async throws -> Int64 {
            try await service.checkpointRequest(CheckpointRequest(clientID: client, id: OpID(id) ?? .zero), userID: "ada").id.value
        }
        #expect(try await ask(1) == 42)
        #expect(try await ask(43) == 43)
        #expect(try await ask(2) == 43)
        #expect(try await ask(Int64.max) == Int64.max)
        #expect(try await ask(44) == Int64.max)
        #expect(try await ask(1, client: "laptop") == 1, "another client holds its own")
    }

    @Test("a checkpoint request is acknowledged as write_checkpoint once replication passes it, on its own client's stream only")
    func checkpointRequestIsAcknowledged() async throws {
        let service = try PowerSync.Service()
        try await service.apply(SourceCommit(changes: [.grant(bucket: "b", userID: "ada", priority: nil), Self.put("b", "1", 1)]))
        try await service.apply(SourceCommit(changes: [Self.put("b", "2", 2)], replicated: false))
        let answered = try await service.checkpointRequest(CheckpointRequest(clientID: "phone", id: OpID(5) ?? .zero), userID: "ada")
        #expect(answered.id == OpID(5))
        var phone = StreamCursor(userID: "ada", request: SyncStreamRequest(clientID: "phone"))
        var laptop = StreamCursor(userID: "ada", request: SyncStreamRequest(clientID: "laptop"))
        guard case .checkpoint(let first) = try await service.answer(&phone).first,
            case .checkpoint(let other) = try await service.answer(&laptop).first
        else {
            Issue.record("a checkpoint first on each stream")
            return
        }
        #expect(first.writeCheckpoint == nil, "the request's source position is not replicated yet")
        #expect(other.writeCheckpoint == nil)
        try await service.replicate()
        guard case .checkpointDiff(let diff) = try await service.answer(&phone).first,
            case .checkpointDiff(let otherDiff) = try await service.answer(&laptop).first
        else {
            Issue.record("a diff after replication on each stream")
            return
        }
        #expect(diff.writeCheckpoint == OpID(5) && diff.lastOpID == OpID(2))
        #expect(otherDiff.writeCheckpoint == nil, "another client's request is not this stream's")
    }

    @Test("a source checksum outside 32 bits is refused, naming the change")
    func badChecksum() async throws {
        let service = try PowerSync.Service()
        await #expect(throws: PowerSync.ServiceError.self) {
            try await service.apply(SourceCommit(changes: [Self.put("b", "1", 4_294_967_296)]))
        }
    }
}

/// Ids at their end: a write checkpoint stored at 2^63−1 (a `--db` file keeps it across restarts).
@Suite("embedded PowerSync service: ids at 2^63−1")
struct PowerSyncServiceLimitTests {
    @Test("a write checkpoint stored at 2^63−1 is refused with an error naming the limit, not a trap; other users are served")
    func writeCheckpointAtTheLargestID() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-ps-limit-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let service = try PowerSync.Service(path: path)
            #expect(try await service.writeCheckpoint(userID: "ada").writeCheckpoint == OpID(1))
        }
        do {
            let db = try SQLiteConnection<PowerSync.ServiceError>(path: path)
            try db.run("UPDATE checkpoints SET id = ? WHERE owner = 'ada'", [.integer(Int64.max)])
        }
        let service = try PowerSync.Service(path: path)
        await #expect {
            _ = try await service.writeCheckpoint(userID: "ada")
        } throws: { error in
            "\(error)".contains("2^63−1")
        }
        #expect(try await service.writeCheckpoint(userID: "bob").writeCheckpoint == OpID(1))
    }
}

/// One managed write checkpoint per user and client, as PowerSync's storage keeps it:
/// powersync-ja/powersync-service at 332d649554ce0ffa6151f57bce920056f2c0b5ea,
/// packages/service-core-tests/src/tests/register-data-storage-checkpoint-tests.ts ("managed write
/// checkpoints - client supplied ids are monotonic", lines 132-192), with the key of
/// packages/service-core/src/util/checkpointing.ts (`checkpointUserId`) and the stream's lookup of
/// packages/service-core/src/sync/sync.ts line 112.
@Suite("embedded PowerSync service: one counter per user and client")
struct PowerSyncCounterTests {
    /// The write checkpoint a fresh stream of ada's `client` acknowledges now.
    static func acknowledged(_ service: PowerSync.Service, client: String? = "phone") async throws -> OpID? {
        var cursor = StreamCursor(userID: "ada", request: SyncStreamRequest(buckets: [], clientID: client))
        guard case .checkpoint(let checkpoint) = try await service.answer(&cursor).first else { return nil }
        return checkpoint.writeCheckpoint
    }

    static func request(_ service: PowerSync.Service, _ id: Int64) async throws -> OpID {
        try await service.checkpointRequest(CheckpointRequest(clientID: "phone", id: try #require(OpID(id))), userID: "ada").id
    }

    @Test(
        "42, then 41, 42 and 43 are answered 42, 42, 42, 43; 43 waits for replication with no id acknowledged meanwhile; a write checkpoint then is 44"
    )
    func sharedCounter() async throws {
        let service = try PowerSync.Service()
        try await service.apply(SourceCommit(changes: [.grant(bucket: "b", userID: "ada", priority: nil)]))
        #expect(try await Self.request(service, 42) == OpID(42))
        #expect(try await Self.acknowledged(service) == OpID(42))
        try await service.apply(SourceCommit(changes: [PowerSyncServiceTests.put("b", "1", 1)], replicated: false))
        #expect(try await Self.request(service, 41) == OpID(42), "stale: the row stays, its position too")
        #expect(try await Self.request(service, 42) == OpID(42), "a retry changes nothing")
        #expect(try await Self.acknowledged(service) == OpID(42))
        #expect(try await Self.request(service, 43) == OpID(43))
        #expect(try await Self.acknowledged(service) == nil, "the one row holds 43, waiting: 42 is not acknowledged meanwhile")
        try await service.replicate()
        #expect(try await Self.acknowledged(service) == OpID(43))
        #expect(try await service.writeCheckpoint(userID: "ada", clientID: "phone").writeCheckpoint == OpID(44))
        #expect(try await Self.acknowledged(service, client: "tablet") == nil, "another client of the user has a counter of its own")
        #expect(try await service.writeCheckpoint(userID: "ada").writeCheckpoint == OpID(1), "without client_id: the user's own")
    }
}
