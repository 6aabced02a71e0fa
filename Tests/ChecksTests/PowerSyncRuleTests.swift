import Checks
import Corpus
import PowerSyncWire
import Testing

/// The PS folds on traces the catalog's fixtures do not cover.
@Suite("PowerSync rules")
struct PowerSyncRuleTests {
    private func run(_ steps: String) throws -> [Finding] { try PowerSyncFixtureRun.findings(steps) }

    private func stream(_ n: Int, buckets: String = "[]", _ lines: [String]) -> String {
        #"{"kind":"sync-stream","lines":[\#(lines.joined(separator: ","))],"n":\#(n),"request":{"buckets":\#(buckets),"client_id":"c"}}"#
    }

    @Test("a bucket's sum carries over to the next stream that asks from where the last one left it")
    func checksumCarriesOver() throws {
        let first = stream(
            1,
            [
                #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":3}],"last_op_id":"2"}}"#,
                #"{"data":{"after":"0","bucket":"a","data":[{"checksum":1,"object_id":"1","object_type":"t","op":"PUT","op_id":"1"},{"checksum":2,"object_id":"2","object_type":"t","op":"PUT","op_id":"2"}],"has_more":false,"next_after":"2"}}"#,
                #"{"checkpoint_complete":{"last_op_id":"2"}}"#,
            ])
        let lines = { (checksum: Int) in
            [
                #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":\#(checksum)}],"last_op_id":"3"}}"#,
                #"{"data":{"after":"2","bucket":"a","data":[{"checksum":4,"object_id":"3","object_type":"t","op":"PUT","op_id":"3"}],"has_more":false,"next_after":"3"}}"#,
                #"{"checkpoint_complete":{"last_op_id":"3"}}"#,
            ]
        }
        #expect(try run("[\(first),\(stream(2, buckets: #"[{"after":"2","name":"a"}]"#, lines(7)))]").isEmpty)
        let wrong = try run("[\(first),\(stream(2, buckets: #"[{"after":"2","name":"a"}]"#, lines(8)))]")
        #expect(wrong.map(\.ruleID) == ["PS-CHECKSUM"] && wrong.first?.location?.number == 2 && wrong.first?.location?.streamLine == 3)
        // A client that asks from a position the trace never saw: its earlier ops are unknown, so nothing is judged.
        #expect(try run("[\(stream(1, buckets: #"[{"after":"2","name":"a"}]"#, lines(8)))]").isEmpty)
    }

    @Test("a completion before any checkpoint, and a diff before any checkpoint, are findings")
    func beforeAnyCheckpoint() throws {
        let findings = try run(
            "[\(stream(1, [#"{"checkpoint_complete":{"last_op_id":"1"}}"#, #"{"checkpoint_diff":{"last_op_id":"3","removed_buckets":[],"updated_buckets":[]}}"#]))]"
        )
        #expect(findings.map(\.ruleID) == ["PS-COMPLETE", "PS-DIFF"])
        #expect(findings.map { $0.location?.streamLine } == [1, 2])
    }

    @Test("a request id of 2^63-1 stays exact, and an answer below the submitted id is a finding")
    func requestIDs() throws {
        let big = "9223372036854775807"
        let steps = [
            #"{"kind":"checkpoint-request","n":1,"request":{"checkpoint_request_id":"\#(big)","client_id":"c"},"response":{"data":{"checkpoint_request_id":"\#(big)"}}}"#,
            #"{"kind":"checkpoint-request","n":2,"request":{"checkpoint_request_id":5,"client_id":"c"},"response":{"data":{"checkpoint_request_id":"\#(big)"}}}"#,
        ]
        #expect(try run("[\(steps.joined(separator: ","))]").isEmpty)
        let below =
            #"[{"kind":"checkpoint-request","n":1,"request":{"checkpoint_request_id":"9","client_id":"c"},"response":{"data":{"checkpoint_request_id":"8"}}}]"#
        let findings = try run(below)
        #expect(
            findings.map(\.ruleID) == ["PS-REQUEST-ID"] && findings.first?.pointer.description == "/response/data/checkpoint_request_id")
    }

    @Test("an undecodable request is a PS-SHAPE finding under /request and leaves the stream's baselines unknown")
    func undecodableRequest() throws {
        let steps =
            #"[{"kind":"sync-stream","lines":[{"checkpoint":{"buckets":[{"bucket":"a","checksum":5}],"last_op_id":"1"}},{"checkpoint_complete":{"last_op_id":"1"}}],"n":1,"request":{"buckets":[{"after":1,"name":"a"}]}}]"#
        let findings = try run(steps)
        #expect(findings.map(\.ruleID) == ["PS-SHAPE"])
        #expect(findings.first?.pointer.description == "/request/buckets/0/after" && findings.first?.location?.streamLine == nil)
    }

    @Test(
        "a partial completion covering a bucket whose last batch said has_more is PS-PRIORITY at once; a wrong sum with no data after is PS-CHECKSUM at the partial"
    )
    func partialCompletions() throws {
        let checkpoint =
            #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":3,"priority":0},{"bucket":"b","checksum":1,"priority":3}],"last_op_id":"3"}}"#
        let first =
            #"{"data":{"after":"0","bucket":"a","data":[{"checksum":1,"object_id":"1","object_type":"t","op":"PUT","op_id":"1"}],"has_more":true,"next_after":"1"}}"#
        let rest =
            #"{"data":{"after":"1","bucket":"a","data":[{"checksum":2,"object_id":"2","object_type":"t","op":"PUT","op_id":"2"}],"has_more":false,"next_after":"2"}}"#
        let b =
            #"{"data":{"after":"0","bucket":"b","data":[{"checksum":1,"object_id":"3","object_type":"t","op":"PUT","op_id":"3"}],"has_more":false,"next_after":"3"}}"#
        let partial = #"{"partial_checkpoint_complete":{"last_op_id":"3","priority":0}}"#
        let complete = #"{"checkpoint_complete":{"last_op_id":"3"}}"#
        let early = try run("[\(stream(1, [checkpoint, first, partial, rest, b, complete]))]")
        #expect(early.map(\.ruleID) == ["PS-PRIORITY"] && early.first?.location?.streamLine == 3)
        let wrong = checkpoint.replacingOccurrences(of: #""checksum":3"#, with: #""checksum":4"#)
        let mismatch = try run("[\(stream(1, [wrong, first, rest, partial, b, complete]))]")
        #expect(mismatch.map(\.ruleID) == ["PS-CHECKSUM"] && mismatch.first?.location?.streamLine == 4)
        #expect(mismatch.first?.pointer.description == "/partial_checkpoint_complete")
    }

    /// powersync-service 332d649: packages/service-core/src/sync/sync.ts line 112 (a stream reads
    /// the write checkpoint of `checkpointUserId(user, client_id)`) and
    /// sync/BucketChecksumState.ts (`write_checkpoint: writeCheckpoint ? String(…) : undefined`).
    @Test("PS-WRITE-CHECKPOINT follows each client on its own, and a line without write_checkpoint is no regression")
    func writeCheckpointPerClient() throws {
        func opened(_ n: Int, client: String, _ write: String?) -> String {
            let acknowledged = write.map { #","write_checkpoint":"\#($0)""# } ?? ""
            return
                #"{"kind":"sync-stream","lines":[{"checkpoint":{"buckets":[],"last_op_id":"1"\#(acknowledged)}},{"checkpoint_complete":{"last_op_id":"1"}}],"n":\#(n),"request":{"buckets":[],"client_id":"\#(client)"}}"#
        }
        let twoClients = [opened(1, client: "phone", "5"), opened(2, client: "tablet", "2"), opened(3, client: "phone", nil)]
        #expect(try run("[\(twoClients.joined(separator: ","))]").isEmpty, "two devices of one user hold counters of their own")
        let back = [opened(1, client: "phone", "5"), opened(2, client: "phone", "4")]
        let findings = try run("[\(back.joined(separator: ","))]")
        #expect(findings.map(\.ruleID) == ["PS-WRITE-CHECKPOINT"] && findings.first?.pointer.description == "/checkpoint/write_checkpoint")
    }

    /// powersync-service 332d649: packages/service-core-tests/src/tests/register-data-storage-checkpoint-tests.ts
    /// lines 132-192 (requests 42, 41, 42, 43 held as 42, 42, 42, 43; a write checkpoint after them is 44).
    @Test("PS-REQUEST-ID: checkpoint requests and write checkpoints of a client share one counter")
    func oneCounter() throws {
        func request(_ n: Int, _ submitted: String, _ answered: String) -> String {
            #"{"kind":"checkpoint-request","n":\#(n),"request":{"checkpoint_request_id":"\#(submitted)","client_id":"c"},"response":{"data":{"checkpoint_request_id":"\#(answered)"}}}"#
        }
        func write(_ n: Int, client: String?, _ answered: String) -> String {
            let query = client.map { #"{"client_id":"\#($0)"}"# } ?? "{}"
            return #"{"kind":"write-checkpoint","n":\#(n),"request":\#(query),"response":{"data":{"write_checkpoint":"\#(answered)"}}}"#
        }
        let real = [
            request(1, "42", "42"), request(2, "41", "42"), request(3, "42", "42"), request(4, "43", "43"), write(5, client: "c", "44"),
        ]
        #expect(try run("[\(real.joined(separator: ","))]").isEmpty)
        let ownCounter = real.dropLast() + [write(5, client: nil, "1")]
        #expect(try run("[\(ownCounter.joined(separator: ","))]").isEmpty, "without client_id the user's own counter")
        let twoNamespaces = real.dropLast() + [write(5, client: "c", "2")]
        let findings = try run("[\(twoNamespaces.joined(separator: ","))]")
        #expect(findings.map(\.ruleID) == ["PS-REQUEST-ID"], "\(findings)")
        #expect(findings.first?.pointer.description == "/response/data/write_checkpoint")
        let afterWrite = [write(1, client: "c", "7"), request(2, "1", "7"), write(3, client: "c", "7")]
        #expect(
            try run("[\(afterWrite.joined(separator: ","))]").isEmpty,
            "a request after a write checkpoint is answered the held 7; a batched write checkpoint may share it")
    }

    /// A device keeps its client id across a sign-out (powersync-sqlite-core 60ebb70,
    /// crates/core/src/view_admin.rs: `DELETE FROM ps_kv WHERE key != 'client_id'`) and its
    /// request counter starts again at 1; the service keys by user and client
    /// (powersync-service 332d649, util/checkpointing.ts `checkpointUserId`) and also deletes
    /// rows past `checkpoint_request_retention_minutes`.
    @Test("another user on the same device (or a compacted row) starts a new counter at 1: no PS-REQUEST-ID, no PS-WRITE-CHECKPOINT")
    func newCounterAfterSignOut() throws {
        func request(_ n: Int, _ submitted: String, _ answered: String) -> String {
            #"{"kind":"checkpoint-request","n":\#(n),"request":{"checkpoint_request_id":"\#(submitted)","client_id":"c"},"response":{"data":{"checkpoint_request_id":"\#(answered)"}}}"#
        }
        func opened(_ n: Int, _ write: String) -> String {
            #"{"kind":"sync-stream","lines":[{"checkpoint":{"buckets":[],"last_op_id":"1","write_checkpoint":"\#(write)"}},{"checkpoint_complete":{"last_op_id":"1"}}],"n":\#(n),"request":{"buckets":[],"client_id":"c"}}"#
        }
        let trace = [request(1, "57", "57"), opened(2, "57"), request(3, "1", "1"), opened(4, "1"), request(5, "2", "2"), opened(6, "2")]
        #expect(try run("[\(trace.joined(separator: ","))]").isEmpty)
        let movedBack = [request(1, "57", "57"), request(2, "3", "3")]
        #expect(
            try run("[\(movedBack.joined(separator: ","))]").map(\.ruleID) == ["PS-REQUEST-ID"], "a held id moving back to 3 is still found"
        )
    }

    /// powersync-service 332d649: packages/service-core/src/sync/sync.ts `bucketDataBatch`
    /// (lines 453-485: a batch ends with has_more true at its size limit; the next batch's empty
    /// chunk is not sent, and the completion follows) and storage/SyncRulesBucketStorage.ts
    /// `getBucketDataBatch` (lines 138-150).
    @Test(
        "a last data line with has_more: true followed by the completion is complete when its checksums add up; a wrong sum is still PS-CHECKSUM"
    )
    func hasMoreThenComplete() throws {
        func lines(checksum: Int) -> [String] {
            [
                #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":\#(checksum),"count":2,"priority":3}],"last_op_id":"2"}}"#,
                #"{"data":{"after":"0","bucket":"a","data":[{"checksum":1,"object_id":"1","object_type":"t","op":"PUT","op_id":"1"},{"checksum":2,"object_id":"2","object_type":"t","op":"PUT","op_id":"2"}],"has_more":true,"next_after":"2"}}"#,
                #"{"partial_checkpoint_complete":{"last_op_id":"2","priority":3}}"#,
                #"{"checkpoint_complete":{"last_op_id":"2"}}"#,
            ]
        }
        #expect(try run("[\(stream(1, lines(checksum: 3)))]").isEmpty)
        #expect(try run("[\(stream(1, lines(checksum: 4)))]").map(\.ruleID).allSatisfy { $0 == "PS-CHECKSUM" })
        #expect(try !run("[\(stream(1, lines(checksum: 4)))]").isEmpty)
    }

    /// powersync-service 332d649 `packages/service-core/src/sync/sync.ts` L480-489: an empty chunk
    /// "is not sent to the client, but may still report progress"; its snapshot "sync updates to
    /// data query only" (modules/module-mongodb-storage/test/src/__snapshots__/storage_sync.test.ts.snap)
    /// sends a bucket's first data `after: "1"` past a checkpoint at 1 that held none of its ops.
    @Test(
        "data may start past the chain up to the latest checkpoint's last_op_id (a range without ops is skipped unsent); beyond it, or back, is PS-OP-ORDER"
    )
    func emptyRangeSkipped() throws {
        func lines(after: String) -> [String] {
            [
                #"{"checkpoint":{"buckets":[{"bucket":"u","checksum":0,"count":0,"priority":3}],"last_op_id":"1"}}"#,
                #"{"checkpoint_complete":{"last_op_id":"1"}}"#,
                #"{"checkpoint_diff":{"last_op_id":"3","removed_buckets":[],"updated_buckets":[{"bucket":"u","checksum":5,"count":1,"priority":3}]}}"#,
                #"{"data":{"after":"\#(after)","bucket":"u","data":[{"checksum":5,"object_id":"l","object_type":"t","op":"PUT","op_id":"3"}],"has_more":false,"next_after":"3"}}"#,
            ]
        }
        #expect(try run("[\(stream(1, lines(after: "1")))]").isEmpty)
        #expect(try run("[\(stream(1, lines(after: "2")))]").isEmpty)
        #expect(try run("[\(stream(1, lines(after: "4")))]").map(\.ruleID).contains("PS-OP-ORDER"))
    }

    @Test("an id a case's source side says is held counts for PS-REQUEST-ID; one Accord inferred from the answers does not")
    func heldFromSource() throws {
        var commit = SourceCommit(changes: [.checkpointRequest(userID: "ada", clientID: "c1", id: "42")])
        #expect(PowerSync.Trace.Event.held(in: commit).count == 1)
        commit.inferred = true
        #expect(PowerSync.Trace.Event.held(in: commit).isEmpty)
    }
}
