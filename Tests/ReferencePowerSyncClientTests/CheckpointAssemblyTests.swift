import JSON
import PowerSyncWire
import Testing

@testable import ReferencePowerSyncClient

/// The client's checkpoint assembly on partial completions (PowerSync's sync_local for a
/// priority): which buckets a `partial_checkpoint_complete` hands over, and what the
/// `checkpoint_complete` after it still carries.
@Suite("CheckpointAssembly: partial completions")
struct CheckpointAssemblyTests {
    /// A checkpoint of three buckets: urgent at priority 0, todos at 1, archive with none (3).
    static let announced = [
        #"{"checkpoint":{"last_op_id":"3","write_checkpoint":"1","buckets":[{"bucket":"urgent","checksum":9,"count":1,"priority":0},{"bucket":"todos","checksum":5,"count":1,"priority":1},{"bucket":"archive","checksum":7,"count":1}]}}"#,
        #"{"data":{"bucket":"urgent","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"PUT","object_type":"todos","object_id":"u1","data":"{}","checksum":9}]}}"#,
        #"{"data":{"bucket":"todos","after":"0","next_after":"2","has_more":false,"data":[{"op_id":"2","op":"PUT","object_type":"todos","object_id":"t1","data":"{}","checksum":5}]}}"#,
    ]
    static let partial = #"{"partial_checkpoint_complete":{"last_op_id":"3","priority":1}}"#
    static let rest = [
        #"{"data":{"bucket":"archive","after":"0","next_after":"3","has_more":false,"data":[{"op_id":"3","op":"PUT","object_type":"todos","object_id":"a1","data":"{}","checksum":7}]}}"#,
        #"{"checkpoint_complete":{"last_op_id":"3"}}"#,
    ]

    static func take(_ lines: [String], into assembly: inout CheckpointAssembly) throws -> CheckpointAssembly.Action {
        var last = CheckpointAssembly.Action.none
        for line in lines { last = assembly.receive(try SyncLine(json: try JSONParser.parse(Array(line.utf8)))) }
        return last
    }

    @Test(
        "a partial completion at priority 1 hands over the buckets at priority 0 and 1 as one unit, and the completion after it only the rest"
    )
    func partialThenComplete() throws {
        var assembly = CheckpointAssembly(held: [:])
        _ = try Self.take(Self.announced, into: &assembly)
        guard case .partiallyComplete(let partial, let writeCheckpoint) = try Self.take([Self.partial], into: &assembly) else {
            Issue.record("the partial completion hands nothing over")
            return
        }
        #expect(partial.priority == 1)
        #expect(writeCheckpoint == OpID(1))
        #expect(Set(partial.ops.keys) == ["urgent", "todos"])
        #expect(Set(partial.buckets.keys) == ["urgent", "todos"], "a partial one holds only what it covers")
        #expect(partial.buckets["todos"]?.position == OpID(2))
        #expect(partial.restarted == ["urgent", "todos"] && partial.removed.isEmpty)
        assembly.applied(partial)
        guard case .complete(let whole) = try Self.take(Self.rest, into: &assembly) else {
            Issue.record("the checkpoint does not complete")
            return
        }
        #expect(whole.priority == nil)
        #expect(Set(whole.ops.keys) == ["archive"], "the partially applied buckets' ops are not applied twice")
        #expect(Set(whole.buckets.keys) == ["urgent", "todos", "archive"])
        #expect(whole.restarted == ["archive"])
    }

    @Test("a partial completion held back (not applied) leaves its buckets' ops to the completion")
    func heldBackPartial() throws {
        var assembly = CheckpointAssembly(held: [:])
        _ = try Self.take(Self.announced + [Self.partial], into: &assembly)
        guard case .complete(let whole) = try Self.take(Self.rest, into: &assembly) else {
            Issue.record("the checkpoint does not complete")
            return
        }
        #expect(Set(whole.ops.keys) == ["urgent", "todos", "archive"])
    }

    @Test("a partial completion whose bucket does not add up discards that bucket and hands nothing over")
    func partialMismatch() throws {
        var assembly = CheckpointAssembly(held: [:])
        let broken = Self.announced[1].replacingOccurrences(of: #""checksum":9}"#, with: #""checksum":8}"#)
        _ = try Self.take([Self.announced[0], broken, Self.announced[2]], into: &assembly)
        guard case .mismatch(let buckets) = try Self.take([Self.partial], into: &assembly) else {
            Issue.record("the mismatch is not seen at the partial completion")
            return
        }
        #expect(buckets == ["urgent"])
    }

    /// powersync-sqlite-core 60ebb70, crates/core/src/sync/streaming_sync.rs,
    /// `OwnedCheckpoint::apply_diff`: `self.write_checkpoint = diff.write_checkpoint`.
    @Test("a diff without write_checkpoint leaves the checkpoint with none, as the core does, not with the one before")
    func diffResetsWriteCheckpoint() throws {
        var assembly = CheckpointAssembly(held: [:])
        _ = try Self.take(Self.announced + [Self.partial] + Self.rest, into: &assembly)
        let diff = #"{"checkpoint_diff":{"last_op_id":"3","updated_buckets":[],"removed_buckets":["archive"]}}"#
        guard case .announced(let writeCheckpoint) = try Self.take([diff], into: &assembly) else {
            Issue.record("the diff is announced")
            return
        }
        #expect(writeCheckpoint == nil)
        guard case .complete(let completed) = try Self.take([#"{"checkpoint_complete":{"last_op_id":"3"}}"#], into: &assembly) else {
            Issue.record("the completion hands the checkpoint over")
            return
        }
        #expect(completed.writeCheckpoint == nil)
    }
}
