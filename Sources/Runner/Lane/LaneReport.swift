import Foundation
import Reports

/// The reports of a live run, fed as cases end: each suite goes through `ReportFanout` (redacted,
/// then JUnit, JSON and the console summary) in input order, so files and console read the same
/// every run; a failing case's lines are printed as soon as it and the cases before it have ended,
/// a progress line is kept on a terminal, and the verdict comes at the end.
struct LaneReport {
    /// How the run talks while it runs.
    struct Console: Sendable {
        /// Colour the console text.
        var color = false
        /// Print the summary only (`--quiet`): no line per failing case, no progress line.
        var quiet = false
        /// Keep a live progress line on standard error (a terminal).
        var progress = false
        /// Accept a run in which no check ran (`--allow-empty`).
        var allowEmpty = false
    }

    private var fanout: ReportFanout
    private let console: Console
    private let total: Int
    private let started = ContinuousClock.now
    private var pending: [Int: SuiteResult] = [:]
    private var nextIndex = 0
    private var done = 0
    private var failed = 0
    private var firstSkip: String?
    /// The first report that could not be written; the run stops reporting at it.
    private(set) var error: RunError?

    /// Opens the reports.
    /// - Parameters:
    ///   - junitPath: where to write JUnit XML, if anywhere.
    ///   - jsonPath: where to write the JSON report, if anywhere.
    ///   - name: the report's name.
    ///   - console: how to talk.
    ///   - total: how many suites the run will add, for the progress line.
    /// - Throws: `RunError` when a report cannot be opened.
    init(junitPath: String?, jsonPath: String?, name: String, console: Console, total: Int, htmlPath: String? = nil) throws(RunError) {
        self.fanout = try ReportFanout(junitPath: junitPath, jsonPath: jsonPath, name: name, htmlPath: htmlPath)
        self.console = console
        self.total = total
        drawProgress()
    }

    /// A played unit ended (in any order): counts it and reports every suite now in input order.
    /// - Parameters:
    ///   - index: the unit's index among the played units.
    ///   - suite: its suite.
    ///   - output: receives console lines.
    mutating func ended(_ index: Int, _ suite: SuiteResult, output: (String) -> Void) {
        pending[index] = suite
        while let next = pending.removeValue(forKey: nextIndex) {
            nextIndex += 1
            add(next, output: output)
        }
        drawProgress()
    }

    /// Reports one suite now: to every report, and its failure lines to the console.
    /// - Parameters:
    ///   - suite: the suite.
    ///   - output: receives console lines.
    mutating func add(_ suite: SuiteResult, output: (String) -> Void) {
        let tally = suite.tally
        done += 1
        if tally.failures + tally.errors > 0 { failed += 1 }
        if firstSkip == nil {
            for result in suite.cases {
                if case .skipped(let reason) = result.outcome {
                    firstSkip = "\(suite.name) › \(result.name): \(reason)"
                    break
                }
            }
        }
        guard error == nil else { return }
        do throws(RunError) {
            try fanout.add(suite)
        } catch {
            self.error = error
            return
        }
        if !console.quiet && tally.failures + tally.errors > 0 {
            var one = ConsoleSummary()
            one.add(suite)
            if console.progress { Self.writeError(ProgressLine.erase) }
            for line in one.failureLines(color: console.color, maxFailures: 5) { output(line) }
        }
    }

    /// Closes the reports and prints the summary: the verdict, after the first failures with `--quiet`.
    /// - Parameter output: receives console lines.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for a report that could not be written, or (a setup error) a run in which
    ///   no check ran, unless `allowEmpty`.
    func finish(output: (String) -> Void) throws(RunError) -> Bool {
        if console.progress { Self.writeError(ProgressLine.erase) }
        if let error { throw error }
        try fanout.finish()
        let summary = fanout.summary
        output(console.quiet ? summary.render(color: console.color) : summary.verdict(color: console.color))
        let tally = summary.tally
        if tally.passed + tally.failures + tally.errors == 0 && !console.allowEmpty {
            let why =
                tally.tests == 0
                ? "the inputs hold no testcase" : "all \(tally.skipped) testcases were skipped (first: \(firstSkip ?? "?"))"
            throw RunError.setup(
                "nothing was checked: \(why)",
                fix: "give inputs this lane checks, or pass --allow-empty to accept a run that checks nothing")
        }
        return summary.isPassing
    }

    private func drawProgress() {
        guard console.progress && !console.quiet else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Self.writeError(ProgressLine(done: done, total: total, failed: failed, elapsed: seconds).redraw)
    }

    private static func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
