import JSON
import PowerSyncWire
import Testing

@Suite("PowerSync sync lines")
struct SyncLineTests {
    private func line(_ text: String) throws -> SyncLine { try SyncLine(json: try JSONParser.parse(text)) }

    private func refusal(_ text: String) throws -> PowerSync.ShapeError {
        let json = try JSONParser.parse(text)
        do throws(PowerSync.ShapeError) {
            _ = try SyncLine(json: json)
        } catch {
            return error
        }
        Issue.record("decoded: \(text)")
        throw PowerSync.ShapeError(.unknownLine, at: .root, "decoded")
    }

    @Test("each of the six line kinds decodes")
    func sixKinds() throws {
        let checkpoint = try line(
            #"{"checkpoint":{"last_op_id":"10","write_checkpoint":"3","buckets":[{"bucket":"a","checksum":-1,"count":2,"priority":1}]}}"#)
        guard case .checkpoint(let body) = checkpoint else {
            Issue.record("not a checkpoint")
            return
        }
        #expect(body.lastOpID.value == 10 && body.writeCheckpoint?.value == 3)
        #expect(body.buckets.first?.checksum.value == UInt32.max && body.buckets.first?.priority == 1)
        let diff = try line(
            #"{"checkpoint_diff":{"last_op_id":"11","updated_buckets":[{"bucket":"b","checksum":5}],"removed_buckets":["a"]}}"#)
        guard case .checkpointDiff(let changes) = diff else {
            Issue.record("not a diff")
            return
        }
        #expect(changes.removedBuckets == ["a"] && changes.updatedBuckets.first?.priority == 3)
        let data = try line(
            #"{"data":{"bucket":"b","after":"0","next_after":"11","has_more":false,"data":[{"op_id":"11","op":"PUT","object_type":"todos","object_id":"1","data":"{}","checksum":5},{"op_id":"12","op":"MOVE","checksum":1},{"op_id":"13","op":"CLEAR","checksum":2},{"op_id":"14","op":"REMOVE","object_type":"todos","object_id":"1","checksum":3}]}}"#
        )
        guard case .data(let batch) = data else {
            Issue.record("not a data line")
            return
        }
        #expect(batch.ops.map(\.op) == [.put, .move, .clear, .remove])
        #expect(
            try line(#"{"partial_checkpoint_complete":{"last_op_id":"11","priority":0}}"#)
                == .partialCheckpointComplete(lastOpID: try #require(OpID(11)), priority: 0))
        #expect(try line(#"{"checkpoint_complete":{"last_op_id":"11"}}"#) == .checkpointComplete(lastOpID: try #require(OpID(11))))
        #expect(try line(#"{"token_expires_in":60}"#) == .tokenExpiresIn(60))
    }

    /// powersync-sqlite-core 60ebb70, crates/core/src/sync/line.rs: a line of another kind is
    /// `SyncLine::UnknownSyncLine` (L108-113, tested by `parse_unknown`), skipped; its structs
    /// have no `deny_unknown_fields`, so members it does not know are ignored.
    @Test(
        "a line of a kind this version does not know is read as unknown and skipped, unknown members are allowed; a line that is not one key is refused"
    )
    func unknownLines() throws {
        #expect(try line(#"{"checkpoint_invalid":{}}"#) == .unknown(kind: "checkpoint_invalid", body: [:]))
        #expect(try line(#"{"foo":123}"#) == .unknown(kind: "foo", body: 123))
        #expect(
            try line(#"{"checkpoint_complete":{"last_op_id":"1","surprise":true}}"#) == .checkpointComplete(lastOpID: try #require(OpID(1)))
        )
        let checkpoint = try line(
            #"{"checkpoint":{"last_op_id":"2","buckets":[{"bucket":"a","checksum":1,"count":1,"new_member":[]}],"streams":[],"later":{}}}"#)
        guard case .checkpoint(let body) = checkpoint else {
            Issue.record("not a checkpoint")
            return
        }
        #expect(body.buckets.map(\.bucket) == ["a"])
        #expect(try refusal(#"{"checkpoint_complete":{"last_op_id":"1"},"token_expires_in":5}"#).kind == .unknownLine)
        #expect(try refusal(#"[]"#).kind == .unknownLine)
    }

    @Test("strict decoding names the JSON pointer of the offending value")
    func pointers() throws {
        let missing = try refusal(#"{"checkpoint_complete":{}}"#)
        #expect(missing.pointer.description == "/checkpoint_complete" && missing.detail.contains("last_op_id"))
        let badOp = try refusal(
            #"{"data":{"bucket":"b","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"UPSERT","checksum":1}]}}"#)
        #expect(badOp.kind == .unknownOp && badOp.pointer.description == "/data/data/0/op")
        let numericOpID = try refusal(#"{"checkpoint":{"last_op_id":10,"buckets":[]}}"#)
        #expect(numericOpID.pointer.description == "/checkpoint/last_op_id")
        let priority = try refusal(#"{"partial_checkpoint_complete":{"last_op_id":"1","priority":-1}}"#)
        #expect(priority.pointer.description == "/partial_checkpoint_complete/priority")
        let putWithoutRow = try refusal(
            #"{"data":{"bucket":"b","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"PUT","checksum":1}]}}"#)
        #expect(putWithoutRow.pointer.description == "/data/data/0")
    }

    /// powersync-service 332d649554ce0ffa6151f57bce920056f2c0b5ea:
    /// packages/service-core/src/routes/endpoints/checkpointing.ts (`CheckpointRequestPayload`,
    /// `allowAdditional: true`, ids 1…2^63−1) and libs/lib-services/src/codec/codecs.ts
    /// (`bigint`: a safe-integer number, or a string matching `^-?[0-9]+$`).
    @Test(
        "checkpoint requests take ids as PowerSync's codecs.bigint does: digit strings, safe-integer numbers, 1...2^63-1, extra keys allowed"
    )
    func checkpointRequests() throws {
        func id(_ literal: String) throws -> Int64 {
            try CheckpointRequest(json: try JSONParser.parse(#"{"client_id":"c","checkpoint_request_id":\#(literal),"extra":[1]}"#)).id
                .value
        }
        #expect(try id(#""9223372036854775807""#) == Int64.max)
        #expect(try id("42") == 42)
        #expect(try id(#""007""#) == 7, "leading zeros match ^-?[0-9]+$")
        #expect(try id("1.0") == 1, "JSON.parse gives 1, a safe integer")
        #expect(try id("1e3") == 1000)
        #expect(try id("9007199254740991") == 9_007_199_254_740_991)
        for literal in [
            #""0""#, "0", #""9223372036854775808""#, "1.5", "true", #""-1""#, #""""#, #"" 5""#, #""5a""#, "9007199254740992", "-3",
        ] {
            #expect(throws: PowerSync.ShapeError.self, "\(literal)") { try id(literal) }
        }
    }

    /// powersync-service 332d649554ce0ffa6151f57bce920056f2c0b5ea:
    /// packages/service-core/src/routes/route-register.ts L64-68 (`data: { data: endpointResponse }`).
    @Test("checkpoint-request and write-checkpoint answers come in PowerSync's {\"data\": …} envelope, and are written in it")
    func envelopes() throws {
        #expect(try CheckpointRequestAnswer(json: try JSONParser.parse(#"{"data":{"checkpoint_request_id":"43"}}"#)).id.value == 43)
        #expect(
            try WriteCheckpointAnswer(json: try JSONParser.parse(#"{"data":{"write_checkpoint":"7","more":1}}"#)).writeCheckpoint.value == 7
        )
        let bare = #expect(throws: PowerSync.ShapeError.self) {
            try CheckpointRequestAnswer(json: try JSONParser.parse(#"{"checkpoint_request_id":"43"}"#))
        }
        #expect(bare?.detail.contains("\"data\"") == true)
        #expect(
            CanonicalJSON.compact(CheckpointRequestAnswer(id: try #require(OpID(43))).json) == #"{"data":{"checkpoint_request_id":"43"}}"#)
        #expect(
            CanonicalJSON.compact(WriteCheckpointAnswer(writeCheckpoint: try #require(OpID(58))).json)
                == #"{"data":{"write_checkpoint":"58"}}"#)
    }

    @Test("a stream request reads its bucket positions")
    func streamRequest() throws {
        let request = try SyncStreamRequest(
            json: try JSONParser.parse(#"{"buckets":[{"name":"a","after":"5"}],"client_id":"c","raw_data":true}"#))
        #expect(request.position(of: "a")?.value == 5 && request.position(of: "b") == nil)
        // powersync-service 332d649, routes/endpoints/sync-stream.ts line 27: allowAdditional.
        let newer = try SyncStreamRequest(
            json: try JSONParser.parse(#"{"buckets":[{"name":"a","after":"5","x":1}],"client_id":"c","a_member_of_tomorrow":{"y":2}}"#))
        #expect(newer.position(of: "a")?.value == 5 && newer.clientID == "c")
    }
}
