import JSON
import PowerSyncWire

/// PS-COMPLETE: a `checkpoint_complete` or `partial_checkpoint_complete` names the
/// `last_op_id` of the latest `checkpoint` or `checkpoint_diff` line of its stream, and never
/// comes before one.
public struct CompletionRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-COMPLETE"]
    private var latest: OpID?

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Follows the stream's checkpoints and judges its completions.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened: latest = nil
        case .line(.checkpoint(let checkpoint)): latest = checkpoint.lastOpID
        case .line(.checkpointDiff(let diff)): latest = diff.lastOpID
        case .line(.checkpointComplete(let lastOpID)): judge(lastOpID, key: "checkpoint_complete", at: location, into: &findings)
        case .line(.partialCheckpointComplete(let lastOpID, _)):
            judge(lastOpID, key: "partial_checkpoint_complete", at: location, into: &findings)
        default: break
        }
    }

    private func judge(_ lastOpID: OpID, key: String, at location: StepLocation, into findings: inout [Finding]) {
        let pointer = JSONPointer(tokens: [key, "last_op_id"])
        guard let latest else {
            findings.append(Finding("PS-COMPLETE", at: location, pointer: pointer, "\(key) comes before any checkpoint of its stream"))
            return
        }
        if lastOpID != latest {
            findings.append(
                Finding(
                    "PS-COMPLETE", at: location, pointer: pointer,
                    "\(key) names last_op_id \(lastOpID), but the latest checkpoint of the stream is \(latest)",
                    expected: .string(latest.description), actual: .string(lastOpID.description)))
        }
    }
}
