import AccordVersion
import Capture
import Corpus
import Reports

/// Sends each suite to every report the run writes: console summary always, JUnit and JSON
/// when asked for, and the HTML page (`--html`); each suite redacted first, by one redactor for
/// the whole run, then given test identities unique across the report (`CaseIdentities`).
package struct ReportFanout {
    private(set) var summary = ConsoleSummary()
    private let redactor = Redactor(policy: RedactionPolicy())
    /// Keeps (classname, name) unique across the report, after redaction.
    private var identities = CaseIdentities()
    private var junit: (JUnitWriter, FileSink)?
    private var json: (JSONReportWriter, FileSink)?
    private var html: (HTMLReportWriter, FileSink)?

    package init(junitPath: String?, jsonPath: String?, name: String, htmlPath: String? = nil) throws(RunError) {
        // The run's name carries its target, which may be a URL with a password in it.
        let name = redactor.message(name)
        if let junitPath {
            let sink = try FileSink(path: junitPath)
            do { junit = (try JUnitWriter(sink: sink, name: name), sink) } catch { throw RunError.output(junitPath, "\(error)") }
        }
        if let jsonPath {
            let sink = try FileSink(path: jsonPath)
            json = (JSONReportWriter(sink: sink, accordVersion: AccordVersion.number), sink)
        }
        if let htmlPath {
            let sink = try FileSink(path: htmlPath)
            html = (HTMLReportWriter(sink: sink, title: name, accordVersion: AccordVersion.number), sink)
        }
    }

    /// Redacts the suite, gives it unique identities and writes it to every report.
    /// - Returns: the suite as the reports have it, for the console to print.
    @discardableResult
    package mutating func add(_ suite: SuiteResult) throws(RunError) -> SuiteResult {
        let suite = identities.unique(suite.redacted(by: redactor))
        summary.add(suite)
        if let (writer, _) = junit {
            do { try writer.write(suite) } catch { throw RunError.output("JUnit report", "\(error)") }
        }
        if let (writer, _) = json {
            do { try writer.write(suite) } catch { throw RunError.output("JSON report", "\(error)") }
        }
        if let (writer, _) = html {
            do { try writer.write(suite) } catch { throw RunError.output("HTML report", "\(error)") }
        }
        return suite
    }

    package func finish() throws(RunError) {
        if let (writer, sink) = junit {
            do { try writer.finish() } catch { throw RunError.output("JUnit report", "\(error)") }
            try sink.close()
        }
        if let (writer, sink) = json {
            do { try writer.finish() } catch { throw RunError.output("JSON report", "\(error)") }
            try sink.close()
        }
        if let (writer, sink) = html {
            do { try writer.finish() } catch { throw RunError.output("HTML report", "\(error)") }
            try sink.close()
        }
    }
}
