import JSON
import PowerSyncWire

/// PS-WRITE-CHECKPOINT: the `write_checkpoint` a stream acknowledges never goes back, per
/// client. A stream reads the one write checkpoint of its user and client (service-core
/// `sync/sync.ts`, `checkpointUserId(user, client_id)`), so over a trace the `write_checkpoint`
/// of a `checkpoint` or `checkpoint_diff` is never below one acknowledged before to the same
/// client id. A line without one is not a regression: the service omits it while the latest id
/// waits for replication (`sync/BucketChecksumState.ts`, `writeCheckpoint ? … : undefined`).
/// A checkpoint-request or write-checkpoint answer of 1 starts the client's count again: the
/// trace does not say whose a stream is, and another user on the same device (which keeps its
/// client id across a sign-out) or a compacted row has a counter of its own.
public struct WriteCheckpointRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-WRITE-CHECKPOINT"]
    /// The greatest acknowledged, per stream client id ("" for a stream without one).
    private var acknowledged: [String: OpID] = [:]
    /// The client id of the stream the lines belong to.
    private var client = ""

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Follows the greatest write checkpoint acknowledged to each client and judges each new one.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened(let request): client = request?.clientID ?? ""
        case .line(.checkpoint(let checkpoint)):
            acknowledge(
                checkpoint.writeCheckpoint, pointer: JSONPointer(tokens: ["checkpoint", "write_checkpoint"]), at: location, &findings)
        case .line(.checkpointDiff(let diff)):
            acknowledge(
                diff.writeCheckpoint, pointer: JSONPointer(tokens: ["checkpoint_diff", "write_checkpoint"]), at: location, &findings)
        case .checkpointRequest(let request, let answer) where answer.id.value == 1:
            acknowledged[request.clientID] = nil
        case .writeCheckpoint(let request, let answer) where answer.writeCheckpoint.value == 1:
            acknowledged[request.clientID ?? ""] = nil
        default: break
        }
    }

    private mutating func acknowledge(_ id: OpID?, pointer: JSONPointer, at location: StepLocation, _ findings: inout [Finding]) {
        guard let id else { return }
        if let before = acknowledged[client], id < before {
            findings.append(
                Finding(
                    "PS-WRITE-CHECKPOINT", at: location, pointer: pointer,
                    "write_checkpoint \(id) goes back from \(before), acknowledged earlier to client \(client.isEmpty ? "(none)" : client)",
                    actual: .string(id.description)))
        }
        acknowledged[client] = max(acknowledged[client] ?? id, id)
    }
}
