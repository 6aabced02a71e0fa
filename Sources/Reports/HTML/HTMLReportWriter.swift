/// A self-contained HTML page of a run: a summary by lane, area and rule, then one section per
/// suite with its sequence picture, its cases, and for each failure the rule, the rule's
/// statement and expected versus actual side by side. Failing suites are open, passing ones
/// folded; a small inline script filters suites by status and rule.
///
/// The page loads nothing: the style sheet and script are inline, the pictures are inline SVG,
/// and every name, message and value is escaped. Suites are written as they come (bytes handed
/// to the sink in chunks of about 64 KiB) and the summary last, placed first by the style sheet,
/// so memory stays bounded by the largest suite. Not thread-safe; use one writer from one task.
public final class HTMLReportWriter {
    /// The buffered size past which bytes are handed to the sink.
    static let flushThreshold = 64 * 1024

    private var out: SinkBuffer
    private var summary = HTMLSummary()

    /// Starts a page, buffering its head, style sheet and filter bar.
    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - title: the report's name, e.g. "accord run --server embedded".
    ///   - accordVersion: the version of accord that produced the report.
    public init(sink: ReportSink, title: String, accordVersion: String) {
        self.out = SinkBuffer(sink: sink)
        out.bytes.reserveCapacity(Self.flushThreshold + 4096)
        out.bytes.append(contentsOf: HTMLPage.opening(title: HTMLText.escape(title), version: HTMLText.escape(accordVersion)).utf8)
    }

    /// Writes one suite's section (its counts cover the cases it did not keep).
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   after `finish()` or an earlier failure.
    public func write(_ suite: SuiteResult) throws {
        guard out.isOpen else { throw ReportError.alreadyFinished }
        let tally = suite.tally
        summary.add(suite, tally: tally)
        out.bytes.append(contentsOf: Self.section(suite, tally: tally).utf8)
        if out.bytes.count >= Self.flushThreshold { try out.flush() }
    }

    /// Writes the summary and the script, and hands every remaining byte to the sink.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   when called twice or after an earlier failure.
    public func finish() throws {
        guard out.isOpen else { throw ReportError.alreadyFinished }
        out.bytes.append(contentsOf: summary.render().utf8)
        out.bytes.append(contentsOf: HTMLPage.closing.utf8)
        try out.flush()
        out.isOpen = false
    }

    /// A suite's status for the filters: failed or errored when any case is, else passed when a
    /// case passed, else skipped.
    /// - Parameter tally: the suite's counts.
    /// - Returns: "failed", "errored", "passed" or "skipped".
    static func status(_ tally: Tally) -> String {
        if tally.failures > 0 { return "failed" }
        if tally.errors > 0 { return "errored" }
        return tally.passed > 0 ? "passed" : "skipped"
    }
}
