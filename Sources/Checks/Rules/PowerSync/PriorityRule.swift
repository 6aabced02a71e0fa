import KizunaWire
import PowerSyncWire

/// PS-PRIORITY: a `partial_checkpoint_complete` at priority N covers exactly the checkpoint's
/// buckets at priority N or higher (a number at most N), so it comes only when each of those
/// has its data complete: no `data` line of it left saying `has_more: true`. A
/// `checkpoint_complete` covers every bucket the same way.
public struct PriorityRule: PowerSyncRule {
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-PRIORITY"]
    private var pending: Set<String> = []
    private var view = CheckpointView()

    /// Starts a fold.
    public init() {}

    /// Follows which buckets have more data coming and judges completions.
    /// - Parameters:
    ///   - event: the event.
    ///   - location: where it is.
    ///   - findings: where violations go.
    public mutating func observe(_ event: PowerSyncExchange, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened:
            pending = []
            view.reset()
        case .line(.data(let data)):
            if data.hasMore { pending.insert(data.bucket) } else { pending.remove(data.bucket) }
        case .line(.partialCheckpointComplete(_, let priority)):
            for bucket in view.covered(by: priority) where pending.contains(bucket.bucket) {
                findings.append(
                    Finding(
                        "PS-PRIORITY", at: location, pointer: JSONPointer(tokens: ["partial_checkpoint_complete", "priority"]),
                        "a partial completion at priority \(priority) covers bucket \(bucket.bucket) (priority \(bucket.priority)), whose data is not complete (has_more: true)"
                    ))
            }
        case .line(.checkpointComplete):
            for bucket in view.buckets where pending.contains(bucket.bucket) {
                findings.append(
                    Finding(
                        "PS-PRIORITY", at: location, pointer: JSONPointer(tokens: ["checkpoint_complete"]),
                        "checkpoint_complete covers bucket \(bucket.bucket), whose data is not complete (has_more: true)"))
            }
        case .line(let line):
            for name in view.apply(line) { pending.remove(name) }
        default: break
        }
    }
}
