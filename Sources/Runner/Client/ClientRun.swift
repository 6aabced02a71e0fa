import Corpus
import Foundation
import Reports

/// `accord run --client CMD`: the client lane over corpus folders, transcripts and recordings,
/// each case (each recorded client session) in a fresh driver against a fresh loopback mock, a
/// few cases at once.
public struct ClientRun: Sendable {
    /// What to run and where to report.
    public struct Options: Sendable {
        /// Corpus folders or transcript files.
        public var paths: [String]
        /// The driver's name for reports (its command line).
        public var clientName: String
        /// Cases that must fail.
        public var knownFailing = Expectations()
        /// A glob over case ids.
        public var filter: String?
        /// This run's shard, 1-based, and the shard count.
        public var shard: (index: Int, count: Int) = (1, 1)
        /// Cases run at once.
        public var jobs = 2
        /// How long the driver may take to answer one request.
        public var requestTimeout: Duration = .seconds(10)
        /// Where to write JUnit XML.
        public var junitPath: String?
        /// Where to write the JSON report.
        public var jsonPath: String?
        /// Where to write the HTML page (`--html`).
        public var htmlPath: String? = nil
        /// Whether the console summary uses colour.
        public var color = false
        /// The longest recording line, and the largest transcript, read (`--max-line`).
        public var maxLine = RecordingReader.defaultMaxLine
        /// Print the summary only: no line per failing case, no progress line (`--quiet`).
        public var quiet = false
        /// Keep a live progress line on standard error (the CLI sets it when that is a terminal).
        public var progress = false
        /// Accept a run in which no check ran (`--allow-empty`); else such a run is a setup error.
        public var allowEmpty = false

        /// How the run talks while it runs.
        var console: LaneReport.Console { LaneReport.Console(color: color, quiet: quiet, progress: progress, allowEmpty: allowEmpty) }

        /// Makes options.
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - clientName: the driver's name for reports.
        public init(paths: [String], clientName: String) {
            self.paths = paths
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
        var run = LaneRun(
            paths: options.paths, filter: options.filter, shard: options.shard, jobs: options.jobs, knownFailing: options.knownFailing,
            junitPath: options.junitPath, jsonPath: options.jsonPath, console: options.console, maxLine: options.maxLine,
            reportName: "accord run --client \(options.clientName)",
            properties: [
                SuiteResult.Property(name: "lane", value: "client"), SuiteResult.Property(name: "target", value: options.clientName),
                SuiteResult.Property(name: "accord_version", value: CheckRun.accordVersion),
            ],
            preflight: { () async throws(RunError) in
                _ = try await DriverPreflight.hello(launch, command: options.clientName, timeout: options.requestTimeout)
            })
        run.htmlPath = options.htmlPath
        let replay = ClientReplay(lane: lane)
        return try await run.run(output: output) { loaded, properties in
            await lane.run(loaded, launch: launch, properties: properties)
        } replay: { contents, file, properties in
            await replay.run(contents, file: file, launch: launch, properties: properties)
        }
    }
}
