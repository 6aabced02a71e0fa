import AccordDriver
import Checks
import Corpus
import Harness
import KizunaWire
import Reports

/// Starts a driver with extra environment variables (the kill matrix arms `ACCORD_KILL_AT` in the
/// first process of a run and starts every restart without it).
public typealias KillLauncher = @Sendable (_ environment: [String: String]) throws(RunError) -> any DriverChannel

/// What one case played under the kill matrix carries besides the ordinary play: the point and its
/// step, how to start a fresh driver, and what the runner knows across restarts.
struct KillState: Sendable {
    /// The point this play kills at.
    let point: KillPoint
    /// The step the point applies to.
    let target: Int
    /// Starts a fresh driver (no hook) after a kill.
    let relaunch: @Sendable () throws(RunError) -> any DriverChannel
    /// Whether the first driver was started with `ACCORD_KILL_AT`.
    let hooked: Bool
    /// Where the kill stands in the case.
    private(set) var phase = Phase.armed
    /// The open request, to reopen the same store.
    var open: OpenRequest?
    /// Event codes raised before the last kill (events are counted from each `open`).
    var carriedEvents: Set<String> = []
    /// The events of the latest state read.
    var lastEvents: [String] = []
    /// The ledger: each mutation id whose push answer the client consumed, with the step that answered it.
    var consumed: [String: Int] = [:]

    /// Where the kill stands: each phase follows the one before, once.
    enum Phase: Sendable, Equatable {
        /// Before the point's step.
        case armed
        /// The point's step is played under the kill; the driver has not been restarted.
        case fired
        /// The driver was restarted on the same store (judging after it names KM rules);
        /// `eventsUncertain` when the step interrupted by the kill was found applied, so the
        /// events it raised cannot be observed.
        case restarted(eventsUncertain: Bool)
    }

    /// Whether the kill happened already.
    var fired: Bool { phase != .armed }
    /// Whether the driver has been restarted.
    var restarted: Bool { if case .restarted = phase { true } else { false } }
    /// Whether the step interrupted by the kill was found applied, so its events are unobservable.
    var eventsUncertain: Bool { phase == .restarted(eventsUncertain: true) }

    /// The point's step is reached: the kill fires.
    mutating func fire() {
        if phase == .armed { phase = .fired }
    }

    /// The driver was restarted on the same store: the events seen so far are carried over.
    mutating func restart() {
        carryEvents()
        if !restarted { phase = .restarted(eventsUncertain: false) }
    }

    /// After the restart, the interrupted step was found applied: its events cannot be observed.
    mutating func interruptedStepApplied() { phase = .restarted(eventsUncertain: true) }

    /// The classname-free test name of the kill's own test case.
    func caseName(step: Int) -> String { "step \(step) kill @ \(point.rawValue)" }

    /// Records what a state read showed.
    mutating func observe(_ state: StateResult) {
        lastEvents = state.events.map(\.code)
    }

    /// Moves the last-seen events across a kill.
    mutating func carryEvents() {
        carriedEvents.formUnion(lastEvents)
        lastEvents = []
    }

    /// Notes a push answer the client consumed: its verdicts or abort settle every mutation it carried.
    mutating func noteConsumed(_ exchange: RPCExchange, step: Int) {
        guard exchange.rpc == .push, exchange.isAnswer, exchange.response["signal"]?["type"] == nil else { return }
        for mutation in exchange.request["batch"]?["mutations"]?.arrayValue ?? [] {
            if let id = mutation["mutation_id"]?.stringValue, consumed[id] == nil { consumed[id] = step }
        }
    }

    /// KM-DOUBLE-APPLY: a push that carries a mutation whose answer the client already consumed.
    func doubleApplies(_ step: Step, received: [KizunaSync.Mock.Received]) -> [Failure] {
        var failures: [Failure] = []
        for request in received where request.rpc == .push {
            for mutation in request.body?["batch"]?["mutations"]?.arrayValue ?? [] {
                guard let id = mutation["mutation_id"]?.stringValue, let answered = consumed[id] else { continue }
                failures.append(
                    Failure(
                        .doubleApply,
                        message:
                            "step \(step.n) \(step.label): \(ObligationID.doubleApply) mutation \(id) was pushed again after its answer at step \(answered) was applied",
                        body: "actual: \(request.summary)"))
            }
        }
        return failures
    }
}
