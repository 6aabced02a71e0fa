import AccordVersion
import Corpus
import Foundation
import Harness
import KizunaWire
import PowerSyncWire
import Reports
import ServerContract

/// `accord run --server`: the server lane over corpus folders, transcripts and recordings, cases
/// in parallel on isolated targets (a recording replays on one fresh target, every session in recording order).
public struct ServerRun: Sendable {

    /// What to run and where to report.
    public struct Options: Sendable {
        /// The inputs, the selection, the reports and the console.
        public var run: RunOptions
        /// The target's name for reports ("embedded" or a URL).
        public var targetName: String
        /// Per-case setup.
        public var scenarios = Scenarios.builtIn
        /// The tier a step must reach to pass.
        public var requiredTier = ResponseTier.bound

        /// Makes options.
        public init(paths: [String], targetName: String) {
            self.run = RunOptions(paths: paths)
            self.targetName = targetName
        }
    }

    /// What to run.
    let options: Options
    /// Makes one isolated target per case.
    let makeTarget: KizunaSync.TargetFactory
    /// Makes one isolated PowerSync target per PowerSync case (nil: PowerSync cases are reported
    /// not applicable).
    let makePowerSyncTarget: PowerSync.TargetFactory?

    /// The lane over a target of each profile; `LaneRunner.run` plays it.
    package init(_ options: Options, makeTarget: @escaping KizunaSync.TargetFactory, makePowerSyncTarget: PowerSync.TargetFactory? = nil) {
        self.options = options
        self.makeTarget = makeTarget
        self.makePowerSyncTarget = makePowerSyncTarget
    }

}

extension ServerRun: Lane {
    package var reportName: String { "accord run --server \(options.targetName)" }

    /// The properties every suite carries.
    var properties: [SuiteResult.Property] {
        Self.properties(.server, target: options.targetName)
    }

    package func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) {
        guard preflight else { return }
        let targets = CaseWork.targets(cases, playsPowerSync: makePowerSyncTarget != nil)
        if targets.kizunaSync { try await Self.preflight(makeTarget, name: options.targetName) }
        if targets.powerSync, let makePowerSyncTarget { try await Self.preflight(makePowerSyncTarget, name: options.targetName) }
    }

    package func plan(_ cases: [CaseSource.Case], _: Void) -> [LanePlan<CaseWork>] {
        CaseWork.plan(cases, playsPowerSync: makePowerSyncTarget != nil, properties: properties)
    }

    package func play(_ unit: CaseWork, _: Void) async -> SuiteResult {
        switch unit {
        case .transcript(let loaded):
            return await loaded.served(by: self)
        case .recording(let source):
            return await RecordingReplay(requiredTier: options.requiredTier).run(source, makeTarget: makeTarget, properties: properties)
        }
    }
}

extension ServerRun {
    /// Checks the target before the first case: that one can be made, and for a target that checks
    /// its own setup (`TargetPreflight`: a URL target answers, has its fixture endpoint on and takes
    /// the runner's JWT), that it passes.
    /// - Parameters:
    ///   - makeTarget: the run's target factory.
    ///   - name: the target's name, for the message.
    /// - Throws: `RunError.setup` for a target that cannot be tested as set up.
    static func preflight<Target>(_ makeTarget: () throws(TargetError) -> Target, name: String) async throws(RunError) {
        let target: Target
        do throws(TargetError) {
            target = try makeTarget()
        } catch {
            throw RunError.setup("the target \(name) cannot be made: \(error)", fix: "check --server and its options")
        }
        guard let checked = target as? any TargetPreflight else { return }
        do throws(SetupProblem) {
            try await checked.preflight()
        } catch {
            throw RunError.setup(error.problem, fix: error.fix)
        }
    }
}
