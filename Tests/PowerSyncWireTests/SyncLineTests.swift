import KizunaWire
import PowerSyncWire
import Testing

@Suite("PowerSync sync lines")
struct SyncLineTests {
    private func line(_ text: String) throws -> SyncLine { try SyncLine(json: try JSONParser.parse(text)) }

    private func refusal(_ text: String) throws -> PowerSyncWireError {
        let json = try JSONParser.parse(text)
        do throws(PowerSyncWireError) {
            _ = try SyncLine(json: json)
        } catch {
            return error
        }
        Issue.record("decoded: \(text)")
        throw PowerSyncWireError(.unknownLine, at: .root, "decoded")
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

    @Test("a line that is not one known key is an unknown line")
    func unknownLines() throws {
        #expect(try refusal(#"{"checkpoint_invalid":{}}"#).kind == .unknownLine)
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
        let extra = try refusal(#"{"checkpoint_complete":{"last_op_id":"1","surprise":true}}"#)
        #expect(extra.pointer.description == "/checkpoint_complete/surprise")
        let priority = try refusal(#"{"partial_checkpoint_complete":{"last_op_id":"1","priority":-1}}"#)
        #expect(priority.pointer.description == "/partial_checkpoint_complete/priority")
        let putWithoutRow = try refusal(
            #"{"data":{"bucket":"b","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"PUT","checksum":1}]}}"#)
        #expect(putWithoutRow.pointer.description == "/data/data/0")
    }

    @Test("checkpoint requests take string or integer ids up to 2^63-1 and nothing outside 1...2^63-1")
    func checkpointRequests() throws {
        let big = try CheckpointRequest(json: try JSONParser.parse(#"{"client_id":"c","checkpoint_request_id":"9223372036854775807"}"#))
        #expect(big.id.value == Int64.max)
        let number = try CheckpointRequest(json: try JSONParser.parse(#"{"client_id":"c","checkpoint_request_id":42}"#))
        #expect(number.id.value == 42)
        for id in [#""0""#, "0", #""9223372036854775808""#, "1.5", "true"] {
            #expect(throws: PowerSyncWireError.self, "\(id)") {
                try CheckpointRequest(json: try JSONParser.parse(#"{"client_id":"c","checkpoint_request_id":\#(id)}"#))
            }
        }
        #expect(try CheckpointRequestAnswer(json: try JSONParser.parse(#"{"checkpoint_request_id":"43"}"#)).id.value == 43)
        #expect(try WriteCheckpointAnswer(json: try JSONParser.parse(#"{"write_checkpoint":"7"}"#)).writeCheckpoint.value == 7)
        let request = try SyncStreamRequest(
            json: try JSONParser.parse(#"{"buckets":[{"name":"a","after":"5"}],"client_id":"c","raw_data":true}"#))
        #expect(request.position(of: "a")?.value == 5 && request.position(of: "b") == nil)
    }
}
