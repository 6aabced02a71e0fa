import AccordVersion
import Corpus
import Foundation
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
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - clientName: the driver's name for reports.
        public init(paths: [String], clientName: String) {
            self.run = RunOptions(paths: paths)
            self.clientName = clientName
        }
    }

    /// Runs the lane.
    /// - Parameters:
    ///   - options: what to run.
    ///   - launch: starts a fresh driver for one case.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(_ options: Options, launch: @escaping DriverLauncher, output: (String) -> Void) async throws(RunError) -> Bool {
        let lane = ClientLane(requestTimeout: options.requestTimeout)
        let run = LaneRun(
            options: options.run, reportName: "accord run --client \(options.clientName)",
            properties: [
                .lane(.client), SuiteResult.Property(name: "target", value: options.clientName),
                SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
            ],
            preflight: { () async throws(RunError) in
                _ = try await DriverPreflight.hello(launch, command: options.clientName, timeout: options.requestTimeout)
            })
        let replay = ClientReplay(lane: lane)
        return try await run.run(output: output, .client(lane, replay: replay, launch: launch))
    }
}
