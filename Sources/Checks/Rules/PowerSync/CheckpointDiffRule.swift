import JSON
import PowerSyncWire

/// PS-DIFF: a `checkpoint_diff` applies to the checkpoint it follows: the stream has had a
/// `checkpoint` before it, every bucket it removes is in that checkpoint, no bucket is both
/// updated and removed, and its `last_op_id` is not behind the checkpoint's.
public struct CheckpointDiffRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-DIFF"]
    private var view = CheckpointView()

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Follows the checkpoint and judges each diff against it.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened: view.reset()
        case .line(.checkpointDiff(let diff)):
            judge(diff, at: location, into: &findings)
            view.apply(.checkpointDiff(diff))
        case .line(let line): view.apply(line)
        default: break
        }
    }

    private func judge(_ diff: CheckpointDiff, at location: StepLocation, into findings: inout [Finding]) {
        let root = JSONPointer(tokens: ["checkpoint_diff"])
        guard let base = view.lastOpID else {
            findings.append(Finding("PS-DIFF", at: location, pointer: root, "a checkpoint_diff with no checkpoint before it in its stream"))
            return
        }
        for (index, name) in diff.removedBuckets.enumerated() where view.bucket(name) == nil {
            findings.append(
                Finding(
                    "PS-DIFF", at: location, pointer: root.appending("removed_buckets").appending(index),
                    "removes bucket \(name), which the checkpoint it follows does not have"))
        }
        let removed = Set(diff.removedBuckets)
        for (index, bucket) in diff.updatedBuckets.enumerated() where removed.contains(bucket.bucket) {
            findings.append(
                Finding(
                    "PS-DIFF", at: location, pointer: root.appending("updated_buckets").appending(index),
                    "bucket \(bucket.bucket) is both updated and removed"))
        }
        if diff.lastOpID < base {
            findings.append(
                Finding(
                    "PS-DIFF", at: location, pointer: root.appending("last_op_id"),
                    "last_op_id \(diff.lastOpID) is behind the checkpoint it follows (\(base))", expected: nil,
                    actual: .string(diff.lastOpID.description)))
        }
    }
}
