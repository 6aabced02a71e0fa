import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

/// The kill matrix as a wrapper around an ordinary client-lane play. It owns the point, its step
/// and what the runner knows across restarts (`KillState`). At its step it plays in the play's
/// place: it kills the driver through `DriverSession`, restarts it on the same store and judges
/// what survived with `KillJudge`. Elsewhere it excuses events raised before the kill, keeps the
/// ledger of consumed pushes (KM-DOUBLE-APPLY) and the outbox order after a restart, and after
/// the postconditions checks that the journal holds each rejection once.
struct KillPlay: ClientPlayWrapper {
    /// The point, its step, how to restart, and what is known across restarts.
    var state: KillState

    /// A wrapper killing at `state.point`.
    init(_ state: KillState) { self.state = state }

    /// `<case> @ <point>`: one case is played once per point.
    func suiteName(of transcript: Transcript) -> String { "\(transcript.caseID) @ \(state.point.rawValue)" }

    /// `kizuna.kill.<case id>@<point>`.
    func classname(of transcript: Transcript) -> String {
        CaseResult.classname(lane: "kill", caseID: transcript.caseID, variant: state.point.rawValue)
    }

    /// Keeps the open request, to reopen the same store after a kill.
    mutating func opened(_ open: OpenRequest) { state.open = open }

    mutating func observed(_ state: StateResult) { self.state.observe(state) }

    mutating func consumed(_ exchange: RPCExchange, step: Int) { state.noteConsumed(exchange, step: step) }

    /// Events are counted from each open: those raised before a kill were seen then, or are unobservable.
    func excuses(event code: String) -> Bool { state.carriedEvents.contains(code) || state.eventsUncertain }

    /// KM-DOUBLE-APPLY for a mutation whose answer was consumed; after a restart, a push that lost
    /// or reordered the queued mutations.
    func requestFailures(_ step: Step, rpc: RPCKind, golden: JSONValue?, received: [KizunaSync.Mock.Received]) -> [Failure] {
        var failures = state.doubleApplies(step, received: received)
        if state.restarted, rpc == .push, let outbox = KillJudge.outboxFailure(step, golden: golden, received: received.first?.body) {
            failures.append(outbox)
        }
        return failures
    }

    /// Plays the point's step, once.
    static func play(_ step: Step, name: String, in play: inout KizunaSync.ClientPlay<KillPlay>) async -> Bool {
        guard !play.kill.fired, play.kill.target == step.n else { return false }
        await play.playKilled(step, name: name)
        return true
    }

    static func finish(_ play: inout KizunaSync.ClientPlay<KillPlay>) async { await play.killFinalChecks() }

    /// How long a hooked driver may take, after the mock handed over an answer, to die at its seam before the runner kills it.
    static let hookGrace: Duration = .milliseconds(300)

    /// The other identity of identity-change.
    static let otherUser = "00000000-0000-4000-8000-a100000000ff"
    static let otherClient = "00000000-0000-4000-8000-c100000000ff"
}

extension KizunaSync.ClientPlay where Wrapper == KillPlay {
    /// The kill matrix's state, which its wrapper owns.
    var kill: KillState {
        get { wrapper.state }
        set { wrapper.state = newValue }
    }
}
