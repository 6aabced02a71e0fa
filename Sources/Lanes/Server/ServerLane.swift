import Corpus
import Harness
import KizunaWire
import Reports
import ServerContract

/// The server lane for one case of any profile: a target made for the case (one that cannot be
/// made is the suite's one errored test case, `target`), the case played on it by its profile
/// (`SyncProfile.ServerPlay`), the suite assembled (the run draws its picture). A case no server can play is one skipped
/// test case, `server lane`, and no target is made.
struct ServerLane<Profile: SyncProfile>: Sendable {
    /// Makes a fresh, isolated target for one case.
    typealias TargetFactory = @Sendable () throws(TargetError) -> Profile.Target

    /// Per-case setup the transcripts leave to prose (KizunaSync's).
    var scenarios: Scenarios
    /// The tier a compared answer must reach to pass: `.bound` (the default) or `.pass` (byte-equal).
    var requiredTier: ResponseTier

    /// A lane with the run's settings.
    init(scenarios: Scenarios, requiredTier: ResponseTier = .bound) {
        self.scenarios = scenarios
        self.requiredTier = requiredTier
    }

    /// Runs one case on a target no other case uses; the suite carries the profile's own
    /// properties after `properties`.
    func run(_ loaded: Profile.Loaded, on target: Profile.Target, properties: [SuiteResult.Property]) async -> SuiteResult {
        await run(loaded, makeTarget: { () throws(TargetError) in target }, properties: properties)
    }

    /// Runs one case against a target made for it.
    func run(_ loaded: Profile.Loaded, makeTarget: TargetFactory, properties: [SuiteResult.Property]) async -> SuiteResult {
        let (name, file) = Profile.suite(of: loaded)
        let all = properties + Profile.serverProperties(of: loaded)
        let classname = CaseResult.classname(lane: "server", caseID: name)
        func suite(_ cases: [CaseResult], _ more: [SuiteResult.Property] = []) -> SuiteResult {
            SuiteResult(name: name, file: file, properties: all + more, cases: cases)
        }
        if let reason = Profile.serverInapplicable(loaded) {
            return suite([CaseResult(name: "server lane", classname: classname, outcome: .skipped(reason))])
        }
        let target: Profile.Target
        do throws(TargetError) { target = try makeTarget() } catch {
            return suite([CaseResult(name: "target", classname: classname, outcome: .errored("\(error)"))])
        }
        let played = await Profile.ServerPlay.play(loaded, on: target, lane: self)
        return suite(played.cases, played.properties)
    }
}

extension ServerLane {
    /// Plays a case in `run`: on a target of the profile made for it, with the run's settings, its
    /// picture drawn; a run whose target plays no case of the profile reports it not applicable.
    static func play(_ loaded: Profile.Loaded, in run: ServerRun) async -> SuiteResult {
        guard let makeTarget = Profile.target(in: run) else {
            let (name, file) = Profile.suite(of: loaded)
            return CaseSource.unsupportedSuite(
                name, file: file, reason: Profile.noTargetReason, properties: run.properties + Profile.serverProperties(of: loaded))
        }
        let lane = ServerLane(scenarios: run.options.scenarios, requiredTier: run.options.requiredTier)
        return Profile.picture(await lane.run(loaded, makeTarget: makeTarget, properties: run.properties), of: loaded)
    }
}
