import Checks
import Corpus
import Reports
import ServerContract

/// The server lane for one PowerSync case: a fresh service, configured with the case's
/// `service` settings, performs the transcript's source-side steps and answers its exchanges;
/// each live answer runs through the PS rules and is compared with the golden one (AC-GOLDEN).
/// One test case per exchange step; a source-side step is a test case only when the service
/// could not take it (errored), and the suite's `source_steps` property counts them.
public struct PowerSyncServerLane: Sendable {
    /// Makes a fresh, isolated PowerSync target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any PowerSyncTarget

    /// Makes a lane.
    public init() {}

    /// Runs one case against a target made for it; a target that cannot be made is the suite's
    /// one errored test case, `target`.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - makeTarget: makes a target no other case uses.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    public func run(_ loaded: LoadedPowerSyncTranscript, makeTarget: TargetFactory, properties: [SuiteResult.Property]) async
        -> SuiteResult
    {
        let caseID = loaded.transcript.caseID
        let all = properties + [PowerSyncTranscriptCheck.profileProperty]
        if let reason = Self.inapplicable(loaded.transcript) {
            let skipped = CaseResult(
                name: "server lane", classname: CaseResult.classname(lane: "server", caseID: caseID), outcome: .skipped(reason))
            return SuiteResult(name: caseID, file: loaded.file, properties: all, cases: [skipped])
        }
        let target: any PowerSyncTarget
        do throws(TargetError) { target = try makeTarget() } catch {
            let failed = CaseResult(
                name: "target", classname: CaseResult.classname(lane: "server", caseID: caseID), outcome: .errored("\(error)"))
            return SuiteResult(name: caseID, file: loaded.file, properties: all, cases: [failed])
        }
        var play = PowerSyncCasePlay(transcript: loaded.transcript)
        await play.run(on: target)
        let source = SuiteResult.Property(name: "source_steps", value: "\(play.sourceSteps)")
        let left = SuiteResult.Property(name: SuiteResult.leftToLaneProperty("client"), value: "\(play.leftToClientLane)")
        return SuiteResult(name: caseID, file: loaded.file, properties: all + [source, left], cases: play.cases)
    }

    /// Why no service can play a case, or nil: a case of client steps whose transcript states no
    /// source side has its service's answers made up by the client lane's mock, and nothing says
    /// what a service would hold to answer them.
    static func inapplicable(_ transcript: PowerSyncTranscript) -> String? {
        let client = transcript.steps.contains { if case .client = $0.action { true } else { false } }
        guard client, !transcript.steps.contains(where: \.isSourceSide) else { return nil }
        return
            "not applicable: a client-side case with no source steps; its service is the client lane's mock (accord run --client \"accord driver --profile powersync\"), and nothing states what a service would hold"
    }
}
