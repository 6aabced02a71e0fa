import Foundation
import Reports

/// The reports of a run, for every lane, fed as cases end: each suite goes through `ReportFanout`
/// (redacted, then JUnit, JSON, HTML and the console summary) in input order, so files and console
/// read the same every run; a failing case's lines are printed as soon as it and the cases before
/// it have ended, a progress line is kept on a terminal, and the verdict comes at the end. A lane
/// that prints only its summary (check, diff) opens it `quiet`.
package struct ReportSession {
    /// How the run talks while it runs.
    package typealias Console = RunOptions.Console

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

    /// Opens the reports (their paths were checked with `ReportPaths.check(inputs:)` before the run).
    /// - Parameters:
    ///   - paths: where to write the report files.
    ///   - name: the report's name.
    ///   - console: how to talk.
    ///   - total: how many suites the run will add, for the progress line.
    /// - Throws: `RunError` when a report cannot be opened.
    package init(_ paths: ReportPaths, name: String, console: Console, total: Int) throws(RunError) {
        self.fanout = try ReportFanout(junitPath: paths.junit, jsonPath: paths.json, name: name, htmlPath: paths.html)
        self.console = console
        self.total = total
        drawProgress()
    }

    /// A played unit ended (in any order): counts it and reports every suite now in input order.
    /// - Parameters:
    ///   - index: the unit's index among the played units.
    ///   - suite: its suite.
    ///   - output: receives console lines.
    package mutating func ended(_ index: Int, _ suite: SuiteResult, output: (String) -> Void) {
        pending[index] = suite
        while let next = pending.removeValue(forKey: nextIndex) {
            nextIndex += 1
            add(next, output: output)
        }
        drawProgress()
    }

    /// Reports one suite now: to every report, and its failure lines to the console.
    package mutating func add(_ suite: SuiteResult, output: (String) -> Void) {
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
        let reported: SuiteResult
        do throws(RunError) {
            reported = try fanout.add(suite)
        } catch {
            self.error = error
            return
        }
        if !console.quiet && tally.failures + tally.errors > 0 {
            // The redacted suite: a driver's stderr tail or a server's answer may hold a secret.
            var one = ConsoleSummary()
            one.add(reported)
            if console.progress { Self.writeError(ProgressLine.erase) }
            for line in one.failureLines(color: console.color, maxFailures: 5) { output(line) }
        }
    }

    /// Closes the reports and prints the summary: the verdict, after the first failures with `--quiet`.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for a report that could not be written, or (a setup error) a run in which
    ///   no check ran, unless `allowEmpty`.
    package func finish(output: (String) -> Void) throws(RunError) -> Bool {
        if console.progress { Self.writeError(ProgressLine.erase) }
        if let error { throw error }
        try fanout.finish()
        let summary = fanout.summary
        if console.quiet {
            output(summary.render(color: console.color))
        } else {
            for line in summary.skippedLines() { output(line) }
            output(summary.verdict(color: console.color))
        }
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
        Self.writeError(ProgressLine(done: done, total: total, failed: failed, elapsed: RunClock.seconds(since: started)).redraw)
    }

    private static func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
