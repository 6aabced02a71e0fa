import JSON
import PowerSyncWire

/// PS-REQUEST-ID: one counter per user and client. `/sync/checkpoint-request` and
/// `/write-checkpoint2.json` of a client share one stored id (service-core
/// `util/checkpointing.ts`, `checkpointUserId`; storage keeps the greater of a supplied id and
/// the stored one, and generates the stored one plus 1): a checkpoint-request answer is never
/// below the submitted id and, once the held id is known, is exactly `max(submitted, held)`, so
/// a stale or repeated id never moves it back; a write-checkpoint answer is not below the held id.
/// A write checkpoint without `client_id` has a counter of its own (the user's).
///
/// The trace does not say whose each exchange is, and the service keys by user and client: a
/// device keeps its client id across a sign-out (powersync-sqlite-core `view_admin.rs`) while its
/// request counter starts again at 1, and the service deletes rows older than its retention
/// window (`checkpoint_request_retention_minutes`). So an answer of 1 (a request of 1 answered 1,
/// or a write checkpoint of 1) is taken as a new counter for the client, not as one moving back;
/// unless the source side stated the id the service holds for that client (a `checkpoint_request`
/// or `write_checkpoint` change: the case says the row is there), and a write-checkpoint answer
/// equal to the held id is allowed (the service's batcher gives
/// requests of one key in one batch the same id, `util/write-checkpoint-batcher.ts`).
public struct CheckpointRequestRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-REQUEST-ID"]
    /// The id held per counter: the client id, or "" for the user's own.
    private var held: [String: OpID] = [:]
    /// The counters whose held id the source side stated: no new-counter reading for them.
    private var stated: Set<String> = []

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Follows the id held per client and judges each answer.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .checkpointRequest(let request, let answer): requested(request, answer, at: location, &findings)
        case .writeCheckpoint(let request, let answer): generated(request, answer, at: location, &findings)
        case .held(let client, let id):
            held[client ?? ""] = max(id, held[client ?? ""] ?? id)
            stated.insert(client ?? "")
        default: break
        }
    }

    private mutating func requested(
        _ request: CheckpointRequest, _ answer: CheckpointRequestAnswer, at location: StepLocation, _ findings: inout [Finding]
    ) {
        let pointer = JSONPointer(tokens: ["response", "data", "checkpoint_request_id"])
        if request.id.value == 1, answer.id.value == 1, !stated.contains(request.clientID) {
            held[request.clientID] = answer.id  // a new counter: another user on this device, or a compacted row
            return
        }
        let stored = held[request.clientID]
        if let stored {
            let expected = max(request.id, stored)
            if answer.id != expected {
                let why =
                    answer.id < stored
                    ? "moves the held id \(stored) back" : "is not the greater of submitted \(request.id) and held \(stored)"
                findings.append(
                    Finding(
                        "PS-REQUEST-ID", at: location, pointer: pointer, "answer \(answer.id) \(why)",
                        expected: .string(expected.description), actual: .string(answer.id.description)))
            }
        } else if answer.id < request.id {
            findings.append(
                Finding(
                    "PS-REQUEST-ID", at: location, pointer: pointer, "answer \(answer.id) is below the submitted id \(request.id)",
                    expected: .string(request.id.description), actual: .string(answer.id.description)))
        }
        held[request.clientID] = max(answer.id, request.id, stored ?? request.id)
    }

    private mutating func generated(
        _ request: WriteCheckpointRequest, _ answer: WriteCheckpointAnswer, at location: StepLocation, _ findings: inout [Finding]
    ) {
        let counter = request.clientID ?? ""
        if answer.writeCheckpoint.value == 1, !stated.contains(counter) {
            held[counter] = answer.writeCheckpoint  // a new counter, as above
            return
        }
        if let stored = held[counter], answer.writeCheckpoint < stored {
            let whose = request.clientID.map { "client \($0)" } ?? "the user (no client_id)"
            findings.append(
                Finding(
                    "PS-REQUEST-ID", at: location, pointer: JSONPointer(tokens: ["response", "data", "write_checkpoint"]),
                    "write checkpoint \(answer.writeCheckpoint) is below the id \(stored) already held for \(whose): one counter per user and client",
                    actual: .string(answer.writeCheckpoint.description)))
        }
        held[counter] = max(held[counter] ?? answer.writeCheckpoint, answer.writeCheckpoint)
    }
}
