import KizunaWire
import PowerSyncWire

/// PS-REQUEST-ID: checkpoint-request ids reconcile per client by keeping the greatest. The
/// answer is the greater of the submitted id and the one the service holds: never below the
/// submitted id, and once the trace has seen the held id (an earlier answer to this client),
/// exactly `max(submitted, held)`, so a stale or repeated id never moves it back.
public struct CheckpointRequestRule: PowerSyncRule {
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-REQUEST-ID"]
    private var held: [String: OpID] = [:]

    /// Starts a fold.
    public init() {}

    /// Follows the id held per client and judges each answer.
    /// - Parameters:
    ///   - event: the event.
    ///   - location: where it is.
    ///   - findings: where violations go.
    public mutating func observe(_ event: PowerSyncExchange, at location: StepLocation, into findings: inout [Finding]) {
        guard case .checkpointRequest(let request, let answer) = event else { return }
        let pointer = JSONPointer(tokens: ["response", "data", "checkpoint_request_id"])
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
}
