import AccordDriver
import Corpus
import Foundation
import Harness
import Reports

/// The client lane for one PowerSync case: a fresh loopback mock service, a fresh PowerSync
/// driver (docs/driver-protocol.md §11) and a fresh store; the case's steps played through the
/// driver, one test case a step, judged by `PowerSyncClientJudge`.
struct PowerSyncClientLane: Sendable {
    /// How long a driver may take to answer one request (a wait adds its own timeout).
    var requestTimeout: Duration
    /// The token the driver is told to send.
    static let token = "accord-powersync-client-lane-token"
    /// The app's credential for its checkpoint backend, in custom mode.
    static let backendToken = "accord-powersync-client-lane-backend-token"

    /// Runs one case.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - launch: starts a fresh driver.
    ///   - properties: the suite's properties.
    ///   - kill: for the kill matrix, the seam the driver dies at and how to start it again.
    /// - Returns: the suite result.
    func run(
        _ loaded: LoadedPowerSyncTranscript, launch: DriverLauncher, properties: [SuiteResult.Property],
        kill: (hook: KillHook, relaunch: DriverLauncher)? = nil
    ) async -> SuiteResult {
        let transcript = loaded.clientPlay ?? loaded.transcript
        let suffix = kill.map { "@" + $0.hook.rawValue } ?? ""
        let classname = CaseResult.classname(lane: kill == nil ? "client" : "kill", caseID: transcript.caseID + suffix)
        let name = transcript.caseID + (kill.map { " @ " + $0.hook.rawValue } ?? "")
        let left = SuiteResult.Property(
            name: SuiteResult.leftToLaneProperty("server"), value: "\(transcript.steps.filter(\.isSourceSide).count)")
        func suite(_ cases: [CaseResult]) -> SuiteResult {
            SuiteResult(
                name: name, file: loaded.file, properties: properties + [PowerSyncTranscriptCheck.profileProperty, left], cases: cases)
        }
        if let reason = Self.inapplicable(transcript) {
            return suite([CaseResult(name: "client lane", classname: classname, outcome: .skipped(reason))])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-powersync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock: PowerSyncMock
        let channel: any DriverChannel
        do throws(RunError) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RunError.usage("cannot create the case folder \(folder.path): \(error.localizedDescription)")
            }
            mock = try PowerSyncMock.start(token: Self.token)
            channel = try await LaneMockServer.launch(launch, orStop: mock.stop)
        } catch {
            return suite([CaseResult(name: "driver", classname: classname, outcome: .errored("\(error)"))])
        }
        var play = PowerSyncClientPlay(
            transcript: transcript, classname: classname, session: DriverSession(channel: channel, timeout: requestTimeout), mock: mock,
            kill: kill)
        await play.run(store: folder.appendingPathComponent("store").path)
        await mock.stop()
        return suite(play.cases)
    }

    /// Why no client can play a case, or nil: every step is source-side or an exchange the app
    /// cannot make a client send (`notApplicable`), so nothing would be checked.
    static func inapplicable(_ transcript: PowerSyncTranscript) -> String? {
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
    static func notApplicable(_ step: PowerSyncStep) -> String? {
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
    static func killHooks(_ transcript: PowerSyncTranscript) -> [KillHook] {
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
    static func unplayableAfterApply(_ transcript: PowerSyncTranscript) -> String? {
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
