/// A streaming JSON report: one document holding every suite written, then the overall tally.
///
/// The shape is
/// `{"accord_version":…,"suites":[{"name","file","time","properties":{…},"tally":{…},"cases":[…]}…],"tally":{…}}`
/// where each case is `{"name","classname","outcome","time","failures":[{"rule","message","body"}],"reason"}`
/// (`failures` root cause first, as `CaseFailure` orders them),
/// `outcome` is `passed`, `failed`, `skipped` or `errored`, `reason` is the skip or error reason
/// (null otherwise), and tallies are `{"tests","passed","failures","skipped","errors"}`. Each suite
/// sits on its own line. Bytes are buffered and handed to the sink in chunks of about 64 KiB;
/// bytes still buffered when an unfinished writer is dropped are discarded. Not thread-safe; use one writer from one task at a time.
public final class JSONReportWriter {
    /// The buffered size past which bytes are handed to the sink.
    static let flushThreshold = 64 * 1024

    private let sink: ReportSink
    private var buffer: [UInt8] = []
    private var tally = Tally()
    private var suites = 0
    private var open = true

    /// Starts a document, buffering its opening up to the `suites` array.
    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - accordVersion: the version of accord that produced the report.
    public init(sink: ReportSink, accordVersion: String) {
        self.sink = sink
        buffer.reserveCapacity(Self.flushThreshold + 4096)
        buffer.append(contentsOf: #"{"accord_version":"#.utf8)
        JSONText.appendString(accordVersion, to: &buffer)
        buffer.append(contentsOf: #","suites":["#.utf8)
    }

    /// Writes one suite with its properties, tally and cases.
    ///
    /// Properties become one object in order; when names repeat, the first value is kept.
    /// - Parameter suite: the suite.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   after `finish()` or an earlier failure.
    public func write(_ suite: SuiteResult) throws {
        guard open else { throw ReportError.alreadyFinished }
        buffer.append(contentsOf: suites == 0 ? "\n".utf8 : ",\n".utf8)
        suites += 1
        let suiteTally = suite.tally
        tally.add(suiteTally)

        buffer.append(contentsOf: #"{"name":"#.utf8)
        JSONText.appendString(suite.name, to: &buffer)
        buffer.append(contentsOf: #","file":"#.utf8)
        if let file = suite.file { JSONText.appendString(file, to: &buffer) } else { appendNull() }
        buffer.append(contentsOf: #","time":"#.utf8)
        DecimalText.appendSeconds(suite.time, to: &buffer)
        buffer.append(contentsOf: #","properties":{"#.utf8)
        var written: [String] = []
        for property in suite.properties where !written.contains(property.name) {
            if !written.isEmpty { buffer.append(UInt8(ascii: ",")) }
            written.append(property.name)
            JSONText.appendString(property.name, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            JSONText.appendString(property.value, to: &buffer)
        }
        buffer.append(contentsOf: #"},"tally":"#.utf8)
        append(suiteTally)
        buffer.append(contentsOf: #","cases":["#.utf8)
        for (index, result) in suite.cases.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            append(result)
            if buffer.count >= Self.flushThreshold { try flush() }
        }
        buffer.append(contentsOf: "]}".utf8)
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Closes the document with the overall tally and hands every remaining byte to the sink.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   when called twice or after an earlier failure.
    public func finish() throws {
        guard open else { throw ReportError.alreadyFinished }
        buffer.append(contentsOf: suites == 0 ? "]".utf8 : "\n]".utf8)
        buffer.append(contentsOf: #","tally":"#.utf8)
        append(tally)
        buffer.append(contentsOf: "}\n".utf8)
        try flush()
        open = false
    }

    private func flush() throws {
        if buffer.isEmpty { return }
        do {
            try buffer.withUnsafeBytes { try sink.write($0) }
            buffer.removeAll(keepingCapacity: true)
        } catch {
            open = false
            buffer = []
            throw ReportError.sink(error)
        }
    }

    private func appendNull() { buffer.append(contentsOf: "null".utf8) }

    private func append(_ tally: Tally) {
        buffer.append(contentsOf: #"{"tests":"#.utf8)
        DecimalText.appendInteger(tally.tests, to: &buffer)
        buffer.append(contentsOf: #","passed":"#.utf8)
        DecimalText.appendInteger(tally.passed, to: &buffer)
        buffer.append(contentsOf: #","failures":"#.utf8)
        DecimalText.appendInteger(tally.failures, to: &buffer)
        buffer.append(contentsOf: #","skipped":"#.utf8)
        DecimalText.appendInteger(tally.skipped, to: &buffer)
        buffer.append(contentsOf: #","errors":"#.utf8)
        DecimalText.appendInteger(tally.errors, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    private func append(_ result: CaseResult) {
        buffer.append(contentsOf: #"{"name":"#.utf8)
        JSONText.appendString(result.name, to: &buffer)
        buffer.append(contentsOf: #","classname":"#.utf8)
        JSONText.appendString(result.classname, to: &buffer)
        buffer.append(contentsOf: #","outcome":"#.utf8)
        let failures: [Failure]
        let reason: String?
        switch result.outcome {
        case .passed: (failures, reason) = ([], nil); buffer.append(contentsOf: #""passed""#.utf8)
        case .failed(let found): (failures, reason) = (CaseFailure.rootCauseFirst(found), nil); buffer.append(contentsOf: #""failed""#.utf8)
        case .skipped(let why): (failures, reason) = ([], why); buffer.append(contentsOf: #""skipped""#.utf8)
        case .errored(let why): (failures, reason) = ([], why); buffer.append(contentsOf: #""errored""#.utf8)
        }
        buffer.append(contentsOf: #","time":"#.utf8)
        DecimalText.appendSeconds(result.time, to: &buffer)
        buffer.append(contentsOf: #","failures":["#.utf8)
        for (index, failure) in failures.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: #"{"rule":"#.utf8)
            JSONText.appendString(failure.ruleID, to: &buffer)
            buffer.append(contentsOf: #","message":"#.utf8)
            JSONText.appendString(failure.message, to: &buffer)
            buffer.append(contentsOf: #","body":"#.utf8)
            JSONText.appendString(failure.body, to: &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(contentsOf: #"],"reason":"#.utf8)
        if let reason { JSONText.appendString(reason, to: &buffer) } else { appendNull() }
        if let note = result.note {
            buffer.append(contentsOf: #","note":"#.utf8)
            JSONText.appendString(note, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }
}
