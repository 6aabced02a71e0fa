import AccordDriver
import Checks
import Corpus
import Harness
import PowerSyncWire
import Reports
import ServerContract

/// The PowerSync profile: a case is a PowerSync transcript, its server a `PowerSync.ServerTarget` (a
/// service configured with the case's settings, or an app's checkpoint backend) that performs the
/// source-side steps and answers the exchanges, its client lane's mock a loopback PowerSync
/// service, and a client-lane play may be killed at a seam of the reference client.
extension PowerSync: SyncProfile {
    typealias Target = any PowerSync.ServerTarget
    /// The kill matrix's seam and how to start the driver again; nil outside the kill matrix.
    typealias Variant = (hook: KillHook, relaunch: DriverLauncher)?

    /// The token the driver is told to send.
    static let token = "accord-powersync-client-lane-token"
    /// The app's credential for its checkpoint backend, in custom mode.
    static let backendToken = "accord-powersync-client-lane-backend-token"
    /// The `profile` property every PowerSync suite carries.
    static let profileProperty = SuiteResult.Property(name: "profile", value: CorpusProfile.powerSync.rawValue)

    static var name: CorpusProfile { .powerSync }

    static func suite(of loaded: PowerSync.LoadedTranscript) -> (name: String, file: String) {
        (loaded.transcript.caseID, loaded.file)
    }

    static func serverProperties(of loaded: PowerSync.LoadedTranscript) -> [SuiteResult.Property] { [profileProperty] }

    /// The source-side steps are the server lane's: counted in `left_to_server_lane`.
    static func clientProperties(of loaded: PowerSync.LoadedTranscript) -> [SuiteResult.Property] {
        let left = (loaded.clientPlay ?? loaded.transcript).steps.filter(\.isSourceSide).count
        return [profileProperty, SuiteResult.Property(name: SuiteResult.leftToLaneProperty("server"), value: "\(left)")]
    }

    static func serverInapplicable(_ loaded: PowerSync.LoadedTranscript) -> String? { serverInapplicable(loaded.transcript) }

    static func target(in run: ServerRun) -> ServerLane<PowerSync>.TargetFactory? { run.makePowerSyncTarget }

    static var noTargetReason: String { CaseSource.powerSyncReason }

    static var plain: Variant { nil }

    /// A recorded session is played as its client played it (`clientPlay`); a kill-matrix play is
    /// named `<case> @ <seam>`.
    static func clientNames(of loaded: PowerSync.LoadedTranscript, _ kill: Variant) -> (suite: String, classname: String) {
        let caseID = (loaded.clientPlay ?? loaded.transcript).caseID
        let suffix = kill.map { "@" + $0.hook.rawValue } ?? ""
        return (
            caseID + (kill.map { " @ " + $0.hook.rawValue } ?? ""),
            CaseResult.classname(lane: kill == nil ? "client" : "kill", caseID: caseID + suffix)
        )
    }

    static func clientInapplicable(_ loaded: PowerSync.LoadedTranscript) -> String? {
        clientInapplicable(loaded.clientPlay ?? loaded.transcript)
    }

    static func startMock(for loaded: PowerSync.LoadedTranscript) async throws(RunError) -> Mock {
        try Mock.start(token: token)
    }

    /// Plays the case through a PowerSync driver (docs/driver-protocol.md §11, `ClientPlay`), one
    /// test case a step, judged by `ClientJudge`.
    static func drive(
        _ loaded: PowerSync.LoadedTranscript, channel: any DriverChannel, mock: Mock, store: String, lane: ClientLane<PowerSync>,
        variant kill: Variant
    ) async -> Played {
        var play = ClientPlay(
            transcript: loaded.clientPlay ?? loaded.transcript, classname: clientNames(of: loaded, kill).classname,
            session: DriverSession(channel: channel, timeout: lane.requestTimeout), mock: mock, kill: kill)
        await play.run(store: store)
        return Played(cases: play.cases)
    }

    static func stop(_ mock: Mock) async { await mock.stop() }

}

extension PowerSync {
    /// Why no service can play a case, or nil: a case of client steps whose transcript states no
    /// source side has its service's answers made up by the client lane's mock, and nothing says
    /// what a service would hold to answer them.
    static func serverInapplicable(_ transcript: PowerSync.Transcript) -> String? {
        let client = transcript.steps.contains { if case .client = $0.action { true } else { false } }
        guard client, !transcript.steps.contains(where: \.isSourceSide) else { return nil }
        return
            "not applicable: a client-side case with no source steps; its service is the client lane's mock (accord run --client \"accord driver --profile powersync\"), and nothing states what a service would hold"
    }

    /// Why no client can play a case, or nil: every step is source-side or an exchange the app
    /// cannot make a client send (`notApplicable`), so nothing would be checked.
    static func clientInapplicable(_ transcript: PowerSync.Transcript) -> String? {
        guard let first = transcript.steps.lazy.compactMap(notApplicable).first,
            transcript.steps.allSatisfy({ $0.isSourceSide || notApplicable($0) != nil })
        else { return nil }
        return first
    }

    /// Why the client lane cannot play one step, or nil: a `checkpoint-request` step that is not a
    /// reconcile, or a `write-checkpoint` step, is an exchange with a chosen id or query, which the
    /// app cannot make a client send (a client asks them on its own only after an upload or at
    /// connect; docs/powersync.md, "The client lane"); a stream request without `client_id` is
    /// none a client sends.
    static func notApplicable(_ step: PowerSync.Step) -> String? {
        if step.reconcile { return nil }
        return switch step.action {
        case .checkpointRequest, .writeCheckpoint:
            "not applicable: step \(step.n) \(step.label) is an exchange the app cannot make a client send (a chosen id or query); the server lane and accord check judge it"
        case .syncStream(let request, _) where request["client_id"] == nil:
            // PowerSync's core always sends one (powersync-sqlite-core 60ebb70, streaming_sync.rs, StreamingSyncRequest.client_id).
            "not applicable: step \(step.n)'s stream request names no client_id, which every PowerSync client sends; the server lane and accord check judge it"
        case .syncStream, .client, .source, .replicate: nil
        }
    }

    /// The kill-matrix seams a case can reach: a checkpoint request for after-request-created, a
    /// completed checkpoint for mid-checkpoint and after-checkpoint-applied.
    static func killHooks(_ transcript: PowerSync.Transcript) -> [KillHook] {
        var requests = false
        var completes = false
        for step in transcript.steps {
            switch step.action {
            case .client(.requestCheckpoint), .client(.upload(_, _, .checkpointRequest?)): requests = true
            case .syncStream(_, let lines): completes = completes || lines.contains { $0["checkpoint_complete"] != nil }
            default: break
            }
        }
        let applied: [KillHook] = completes && unplayableAfterApply(transcript) == nil ? [.afterCheckpointApplied] : []
        return (requests ? [.afterRequestCreated] : []) + (completes ? [.midCheckpoint] : []) + applied
    }

    /// Why the after-checkpoint-applied seam is not applicable to a case, or nil: a stream step
    /// that completes more than one checkpoint (a checkpoint and its diff) kills the client after
    /// the first, and the client then resumes from that one, which golden steps written for one
    /// uninterrupted stream do not say (the lane would count the whole step as applied).
    static func unplayableAfterApply(_ transcript: PowerSync.Transcript) -> String? {
        for step in transcript.steps {
            guard case .syncStream(_, let lines) = step.action else { continue }
            let completes = lines.filter { $0["checkpoint_complete"] != nil }.count
            if completes > 1 {
                return
                    "not applicable: step \(step.n)'s stream completes \(completes) checkpoints; a client killed after applying the first resumes from it, and the golden steps (one uninterrupted stream) do not say what it asks next"
            }
        }
        return nil
    }
}
