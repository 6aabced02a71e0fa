import AccordVersion
import Corpus
import Foundation
import Reports
import ServerContract

/// `accord run --server`: the server lane over corpus folders, transcripts and recordings, cases
/// in parallel on isolated targets (a recording replays on one fresh target, every session in recording order).
public struct ServerRun: Sendable {
    /// Makes a fresh, isolated target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any ServerTarget

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
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - targetName: the target's name.
        public init(paths: [String], targetName: String) {
            self.run = RunOptions(paths: paths)
            self.targetName = targetName
        }
    }

    /// Runs the lane.
    /// - Parameters:
    ///   - options: what to run.
    ///   - makeTarget: makes one isolated target per case.
    ///   - makePowerSyncTarget: makes one isolated PowerSync target per PowerSync case (nil:
    ///     PowerSync cases are reported unsupported).
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(
        _ options: Options, makeTarget: @escaping TargetFactory, makePowerSyncTarget: PowerSyncServerLane.TargetFactory? = nil,
        output: (String) -> Void
    ) async throws(RunError) -> Bool {
        let lane = ServerLane(scenarios: options.scenarios, requiredTier: options.requiredTier)
        let run = LaneRun(
            options: options.run, reportName: "accord run --server \(options.targetName)",
            properties: [
                .lane(.server), SuiteResult.Property(name: "target", value: options.targetName),
                SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
            ],
            preflight: { () async throws(RunError) in try await preflight(makeTarget, name: options.targetName) },
            powerSyncPreflight: { () async throws(RunError) in
                if let makePowerSyncTarget { try await preflight(makePowerSyncTarget, name: options.targetName) }
            })
        let replay = RecordingReplay(requiredTier: options.requiredTier)
        return try await run.run(output: output, .server(lane, replay: replay, makeTarget: makeTarget, powerSync: makePowerSyncTarget))
    }
}
