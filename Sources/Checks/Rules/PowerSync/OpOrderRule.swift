import JSON
import PowerSyncWire

/// PS-OP-ORDER: within a stream, each bucket's op ids increase strictly, and its `data` lines
/// chain: a line's `after` is the request's position for the bucket (0 when the client holds
/// none) or the previous line's `next_after`; `next_after` is not behind the line's last op.
/// A bucket that leaves the checkpoint starts again from 0. The service may move a bucket's
/// position on without a line, up to the checkpoint it serves, when the range held no ops (an
/// empty chunk "is not sent to the client, but may still report progress": powersync-service
/// 332d649 `packages/service-core/src/sync/sync.ts` L480-489; the SDK core then holds every
/// bucket at the checkpoint's `last_op_id`, `storage_adapter.rs` `sync_local`), so an `after`
/// ahead of the chain is taken up to the latest checkpoint's `last_op_id`.
public struct OpOrderRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-OP-ORDER"]
    private var request: SyncStreamRequest?
    private var positions: [String: OpID] = [:]
    private var view = CheckpointView()

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Follows each bucket's position and judges its data lines.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened(let opened):
            request = opened
            positions = [:]
            view.reset()
        case .line(.data(let data)): judge(data, at: location, into: &findings)
        case .line(let line):
            for name in view.apply(line) { positions[name] = OpID.zero }
        default: break
        }
    }

    private mutating func judge(_ data: BucketData, at location: StepLocation, into findings: inout [Finding]) {
        let expected = positions[data.bucket] ?? request.map { $0.position(of: data.bucket) ?? .zero }
        let skippedEmpty = expected.map { data.after > $0 } == true && view.lastOpID.map { data.after <= $0 } == true
        if let expected, data.after != expected, !skippedEmpty {
            findings.append(
                Finding(
                    "PS-OP-ORDER", at: location, pointer: JSONPointer(tokens: ["data", "after"]),
                    "data for \(data.bucket) starts after \(data.after), but the bucket stands at \(expected)",
                    expected: .string(expected.description), actual: .string(data.after.description)))
        }
        var previous = data.after
        for (index, op) in data.ops.enumerated() {
            if op.opID <= previous {
                findings.append(
                    Finding(
                        "PS-OP-ORDER", at: location, pointer: JSONPointer(tokens: ["data", "data", String(index), "op_id"]),
                        "op \(op.opID) of \(data.bucket) does not come after \(previous)"))
            }
            previous = max(previous, op.opID)
        }
        if data.nextAfter < previous {
            findings.append(
                Finding(
                    "PS-OP-ORDER", at: location, pointer: JSONPointer(tokens: ["data", "next_after"]),
                    "next_after \(data.nextAfter) of \(data.bucket) is behind the ops the line carries (up to \(previous))",
                    expected: .string(previous.description), actual: .string(data.nextAfter.description)))
        }
        positions[data.bucket] = data.nextAfter
    }
}
