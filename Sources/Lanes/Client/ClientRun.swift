import AccordVersion
import Corpus
import Foundation
import Harness
import Reports

/// `accord run --client CMD`: the client lane over corpus folders, transcripts and recordings,
/// each case (each recorded client session) in a fresh driver against a fresh loopback mock, a
/// few cases at once.
public struct ClientRun: Sendable {
    /// What to run and where to report.
    public struct Options: Sendable {
        /// The inputs, the selection, the reports and the console.
        public var run: RunOptions
        /// The driver's name for reports (its command line).
        public var clientName: String
        /// How long the driver may take to answer one request.
        public var requestTimeout: Duration = .seconds(10)

        /// Makes options.
        public init(paths: [String], clientName: String) {
            self.run = RunOptions(paths: paths)
            self.clientName = clientName
        }
    }

    /// What to run.
    let options: Options
    /// Starts a fresh driver for one case.
    let launch: DriverLauncher

    /// The lane over a driver.
    init(_ options: Options, launch: @escaping DriverLauncher) {
        self.options = options
        self.launch = launch
    }

    /// Runs the lane; returns true when nothing failed.
    /// - Throws: `RunError` for bad input, an unwritable report or a driver that does not answer hello.
    public static func run(_ options: Options, launch: @escaping DriverLauncher, output: (String) -> Void) async throws(RunError) -> Bool {
        try await LaneRunner(options.run).run(ClientRun(options, launch: launch), output: output)
    }

    /// A matrix of the client lane: each case played once per point it reaches.
    public enum Matrix: Sendable {
        /// `--kill-matrix` (docs/kill-matrix.md).
        case killPoints
        /// `--storage-faults` (docs/storage-faults.md).
        case storageFaults
    }

    /// Runs a matrix over a driver started with extra environment variables (a kill hook,
    /// libfiu's preloads); returns true when nothing failed. The known-failing list does not apply.
    /// - Throws: `RunError` for bad input, an unwritable report, or a setup problem (the driver, libfiu).
    public static func run(_ options: Options, matrix: Matrix, launch: @escaping KillLauncher, output: (String) -> Void)
        async throws(RunError) -> Bool
    {
        let runner = LaneRunner(options.run)
        switch matrix {
        case .killPoints: return try await runner.run(KillMatrixRun(options: options, launch: launch), output: output)
        case .storageFaults: return try await runner.run(StorageFaultRun(options: options, launch: launch), output: output)
        }
    }
}

extension ClientRun: Lane {
    package var reportName: String { "accord run --client \(options.clientName)" }

    /// The properties every suite carries.
    var properties: [SuiteResult.Property] {
        Self.properties(.client, target: options.clientName)
    }

    /// Asks the driver hello when a KizunaSync case is played (a PowerSync case's driver is
    /// asked by its own play).
    package func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) {
        guard preflight, CaseWork.targets(cases, playsPowerSync: true).kizunaSync else { return }
        _ = try await DriverPreflight.hello(launch, command: options.clientName, timeout: options.requestTimeout)
    }

    package func plan(_ cases: [CaseSource.Case], _: Void) -> [LanePlan<CaseWork>] {
        CaseWork.plan(cases, playsPowerSync: true, properties: properties)
    }

    package func play(_ unit: CaseWork, _: Void) async -> SuiteResult {
        switch unit {
        case .transcript(let loaded):
            return await loaded.driven(by: self)
        case .recording(let source):
            return await ClientReplay(lane: ClientLane(requestTimeout: options.requestTimeout)).run(
                source, launch: launch, properties: properties)
        }
    }
}
