import KizunaWire
import PowerSyncWire

/// PS-WRITE-CHECKPOINT: write checkpoints never go back. Over the whole trace (every stream),
/// the `write_checkpoint` a `checkpoint` or `checkpoint_diff` line acknowledges is never below
/// one acknowledged before, and the ids `/write-checkpoint2.json` answers a client never go
/// below one answered it before.
public struct WriteCheckpointRule: PowerSyncRule {
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-WRITE-CHECKPOINT"]
    private var acknowledged: OpID?
    private var answered: [String: OpID] = [:]

    /// Starts a fold.
    public init() {}

    /// Follows the greatest write checkpoint seen and judges each new one.
    /// - Parameters:
    ///   - event: the event.
    ///   - location: where it is.
    ///   - findings: where violations go.
    public mutating func observe(_ event: PowerSyncExchange, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .line(.checkpoint(let checkpoint)):
            acknowledge(
                checkpoint.writeCheckpoint, pointer: JSONPointer(tokens: ["checkpoint", "write_checkpoint"]), at: location, &findings)
        case .line(.checkpointDiff(let diff)):
            acknowledge(
                diff.writeCheckpoint, pointer: JSONPointer(tokens: ["checkpoint_diff", "write_checkpoint"]), at: location, &findings)
        case .writeCheckpoint(let request, let answer):
            let client = request.clientID ?? ""
            if let previous = answered[client], answer.writeCheckpoint < previous {
                findings.append(
                    Finding(
                        "PS-WRITE-CHECKPOINT", at: location, pointer: JSONPointer(tokens: ["response", "data", "write_checkpoint"]),
                        "write checkpoint \(answer.writeCheckpoint) goes back from \(previous), answered to this client before",
                        actual: .string(answer.writeCheckpoint.description)))
            }
            answered[client] = max(answered[client] ?? answer.writeCheckpoint, answer.writeCheckpoint)
        default: break
        }
    }

    private mutating func acknowledge(_ id: OpID?, pointer: JSONPointer, at location: StepLocation, _ findings: inout [Finding]) {
        guard let id else { return }
        if let acknowledged, id < acknowledged {
            findings.append(
                Finding(
                    "PS-WRITE-CHECKPOINT", at: location, pointer: pointer,
                    "write_checkpoint \(id) goes back from \(acknowledged), acknowledged earlier in the trace",
                    actual: .string(id.description)))
        }
        acknowledged = max(acknowledged ?? id, id)
    }
}
