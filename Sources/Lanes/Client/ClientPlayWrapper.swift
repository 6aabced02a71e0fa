import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

/// What wraps a client-lane play: the seams the play calls at step boundaries, after the driver's
/// answers and when the mock has received a step's requests. The play knows nothing else of its
/// wrapper; the ordinary lane plays `Unwrapped`, which adds nothing, and the kill matrix plays
/// `KillPlay`, which kills and restarts the driver at its step and judges what survived.
protocol ClientPlayWrapper: Sendable {
    /// The suite's name for the case.
    func suiteName(of transcript: Transcript) -> String
    /// The JUnit classname of the case's test cases.
    func classname(of transcript: Transcript) -> String
    /// The play opened the store with this request.
    mutating func opened(_ open: OpenRequest)
    /// The driver reported this state.
    mutating func observed(_ state: StateResult)
    /// The client consumed the answer to this push: its verdicts were judged right at `step`.
    mutating func consumed(_ exchange: RPCExchange, step: Int)
    /// Whether an event the state does not show is excused (it was raised where no state read can see it).
    func excuses(event code: String) -> Bool
    /// The wrapper's own findings on the requests the mock received for a step.
    func requestFailures(_ step: Step, rpc: RPCKind, golden: JSONValue?, received: [KizunaSync.Mock.Received]) -> [Failure]
    /// Plays `step` in the ordinary play's place; false when the ordinary play plays it.
    static func play(_ step: Step, name: String, in play: inout KizunaSync.ClientPlay<Self>) async -> Bool
    /// Runs after the postconditions, before the driver is closed.
    static func finish(_ play: inout KizunaSync.ClientPlay<Self>) async
}

extension ClientPlayWrapper {
    func suiteName(of transcript: Transcript) -> String { transcript.caseID }
    func classname(of transcript: Transcript) -> String { CaseResult.classname(lane: "client", caseID: transcript.caseID) }
    mutating func opened(_ open: OpenRequest) {}
    mutating func observed(_ state: StateResult) {}
    mutating func consumed(_ exchange: RPCExchange, step: Int) {}
    func excuses(event code: String) -> Bool { false }
    func requestFailures(_ step: Step, rpc: RPCKind, golden: JSONValue?, received: [KizunaSync.Mock.Received]) -> [Failure] { [] }
    static func play(_ step: Step, name: String, in play: inout KizunaSync.ClientPlay<Self>) async -> Bool { false }
    static func finish(_ play: inout KizunaSync.ClientPlay<Self>) async {}
}

/// The ordinary client lane's wrapper: no seam adds anything, and it holds nothing.
struct Unwrapped: ClientPlayWrapper {}
