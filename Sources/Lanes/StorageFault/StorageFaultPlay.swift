import AccordDriver
import Corpus
import Harness
import KizunaWire
import Reports

/// The storage-fault matrix as a wrapper around an ordinary client-lane play (the peer of
/// `KillPlay`). At its step it plays in the play's place: it switches libfiu's failure points on
/// in the driver for one command, judges the answer and the state after it with
/// `StorageFaultJudge`, restarts the driver for the restart variant, and then plays the step again
/// the ordinary way, so the rest of the case is judged as in the client lane.
struct StorageFaultPlay: ClientPlayWrapper {
    /// The point, its variant and step, and how to start a fresh driver.
    var state: StorageFaultState

    /// A wrapper failing the driver's writes at `state.point`.
    init(_ state: StorageFaultState) { self.state = state }

    /// `<case> @ <point> <errno> <continuation>`: one case is played once per point and variant.
    func suiteName(of transcript: Transcript) -> String {
        "\(transcript.caseID) @ \(state.point.rawValue) \(state.variant.errno.rawValue) \(state.variant.continuation.rawValue)"
    }

    /// `kizuna.storage.<case id>@<point>+<errno>+<continuation>`.
    func classname(of transcript: Transcript) -> String {
        CaseResult.classname(lane: "storage", caseID: transcript.caseID, variant: state.variantName)
    }

    /// Keeps the open request, to reopen the same store after a restart.
    mutating func opened(_ open: OpenRequest) { state.open = open }

    mutating func observed(_ state: StateResult) { self.state.lastEvents = state.events.map(\.code) }

    /// Events are counted from each open: those raised before a restart were seen then.
    func excuses(event code: String) -> Bool { state.carriedEvents.contains(code) }

    /// Plays the point's step, once.
    static func play(_ step: Step, name: String, in play: inout KizunaSync.ClientPlay<StorageFaultPlay>) async -> Bool {
        guard !play.wrapper.state.fired, play.wrapper.state.target == step.n else { return false }
        play.wrapper.state.fired = true
        await play.playFaulted(step, name: name)
        return true
    }

    /// The other identity of identity-change (the kill matrix's).
    static var otherUser: String { KillPlay.otherUser }
    static var otherClient: String { KillPlay.otherClient }
}

/// What one case played under a storage fault carries besides the ordinary play.
struct StorageFaultState: Sendable {
    /// The point whose command fails.
    let point: StorageFaultPoint
    /// The errno and the continuation.
    let variant: StorageFaultVariant
    /// The step the point applies to.
    let target: Int
    /// libfiu's control.
    let failures: StorageFailures
    /// Starts a fresh driver under libfiu (the restart variant, identity-change).
    let relaunch: @Sendable () throws(RunError) -> any DriverChannel
    /// Whether the point's step has been reached.
    var fired = false
    /// The open request, to reopen the same store.
    var open: OpenRequest?
    /// Event codes raised before the last restart (events are counted from each `open`).
    var carriedEvents: Set<String> = []
    /// The events of the latest state read.
    var lastEvents: [String] = []

    /// Moves the last-seen events across a restart.
    mutating func carryEvents() {
        carriedEvents.formUnion(lastEvents)
        lastEvents = []
    }

    /// The variant part of the JUnit classname: `<point>+<errno>+<continuation>`.
    var variantName: String { "\(point.rawValue)+\(variant.errno.rawValue)+\(variant.continuation.rawValue)" }

    /// The name of the fault's own test case.
    func caseName(step: Int) -> String { "step \(step) storage fault @ \(point.rawValue)" }
}
