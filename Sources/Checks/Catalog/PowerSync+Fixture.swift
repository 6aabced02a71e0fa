import PowerSyncWire

extension PowerSync {
    /// Builders for the PowerSync rules' fixtures: short step arrays in the PowerSync transcript
    /// grammar (docs/powersync.md), one NDJSON line a JSON value.
    enum Fixture {
        static let client = "client-1"

        /// A sync-stream step; `held` names the buckets the client already holds and where.
        static func stream(_ n: Int, held: [(String, Int)] = [], _ lines: [String]) -> String {
            let buckets = held.map { #"{"after":"\#($0.1)","name":"\#($0.0)"}"# }.joined(separator: ",")
            return
                #"{"kind":"sync-stream","lines":[\#(lines.joined(separator: ","))],"n":\#(n),"request":{"buckets":[\#(buckets)],"client_id":"\#(client)"}}"#
        }

        /// A bucket of a checkpoint line.
        static func bucket(_ name: String, _ checksum: String, count: Int, priority: Int = 3) -> String {
            #"{"bucket":"\#(name)","checksum":\#(checksum),"count":\#(count),"priority":\#(priority)}"#
        }

        static func checkpoint(_ last: Int, writeCheckpoint: Int? = nil, _ buckets: [String]) -> String {
            let acknowledged = writeCheckpoint.map { #","write_checkpoint":"\#($0)""# } ?? ""
            return #"{"checkpoint":{"buckets":[\#(buckets.joined(separator: ","))],"last_op_id":"\#(last)"\#(acknowledged)}}"#
        }

        static func diff(_ last: Int, writeCheckpoint: Int? = nil, updated: [String], removed: [String] = []) -> String {
            let acknowledged = writeCheckpoint.map { #","write_checkpoint":"\#($0)""# } ?? ""
            let names = removed.map { #""\#($0)""# }.joined(separator: ",")
            return
                #"{"checkpoint_diff":{"last_op_id":"\#(last)","removed_buckets":[\#(names)],"updated_buckets":[\#(updated.joined(separator: ","))]\#(acknowledged)}}"#
        }

        static func data(_ bucket: String, after: Int, next: Int, hasMore: Bool = false, _ ops: [String]) -> String {
            #"{"data":{"after":"\#(after)","bucket":"\#(bucket)","data":[\#(ops.joined(separator: ","))],"has_more":\#(hasMore),"next_after":"\#(next)"}}"#
        }

        static func put(_ id: Int, _ checksum: String, row: Int? = nil) -> String {
            #"{"checksum":\#(checksum),"data":"{\"title\":\"row \#(row ?? id)\"}","object_id":"\#(row ?? id)","object_type":"todos","op":"PUT","op_id":"\#(id)"}"#
        }

        static func remove(_ id: Int, _ checksum: String, row: Int) -> String {
            #"{"checksum":\#(checksum),"object_id":"\#(row)","object_type":"todos","op":"REMOVE","op_id":"\#(id)"}"#
        }

        static func move(_ id: Int, _ checksum: String) -> String { #"{"checksum":\#(checksum),"op":"MOVE","op_id":"\#(id)"}"# }
        static func clear(_ id: Int, _ checksum: String) -> String { #"{"checksum":\#(checksum),"op":"CLEAR","op_id":"\#(id)"}"# }
        static func complete(_ last: Int) -> String { #"{"checkpoint_complete":{"last_op_id":"\#(last)"}}"# }
        static func partial(_ last: Int, priority: Int) -> String {
            #"{"partial_checkpoint_complete":{"last_op_id":"\#(last)","priority":\#(priority)}}"#
        }

        /// A checkpoint-request step: the submitted id and the answered one.
        static func checkpointRequest(_ n: Int, submitted: String, answered: String) -> String {
            #"{"kind":"checkpoint-request","n":\#(n),"request":{"checkpoint_request_id":"\#(submitted)","client_id":"\#(client)"},"response":{"data":{"checkpoint_request_id":"\#(answered)"}}}"#
        }

        /// A write-checkpoint step and its answer.
        static func writeCheckpoint(_ n: Int, answered: Int) -> String {
            #"{"kind":"write-checkpoint","n":\#(n),"request":{"client_id":"\#(client)"},"response":{"data":{"write_checkpoint":"\#(answered)"}}}"#
        }

        /// The lines of one bucket `todos` with three PUTs (checksums 1, 2, 3) checkpointed at 3 with
        /// `checksum`, completed with `completed`.
        static func threeRows(checksum: String = "6", ops: [String]? = nil, completed: Int = 3) -> [String] {
            [
                checkpoint(3, [bucket("todos", checksum, count: 3)]),
                data("todos", after: 0, next: 3, ops ?? [put(1, "1"), put(2, "2"), put(3, "3")]), complete(completed),
            ]
        }

        static func steps(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    }
}
