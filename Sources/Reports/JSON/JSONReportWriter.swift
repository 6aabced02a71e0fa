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

    private var out: SinkBuffer
    private var tally = Tally()
    private var suites = 0

    /// Starts a document, buffering its opening up to the `suites` array.
    /// - Parameters:
    ///   - sink: where the bytes go.
    ///   - accordVersion: the version of accord that produced the report.
    public init(sink: ReportSink, accordVersion: String) {
        self.out = SinkBuffer(sink: sink)
        out.bytes.reserveCapacity(Self.flushThreshold + 4096)
        out.bytes.append(contentsOf: #"{"accord_version":"#.utf8)
        JSONText.appendString(accordVersion, to: &out.bytes)
        out.bytes.append(contentsOf: #","suites":["#.utf8)
    }

    /// Writes one suite with its properties, tally and cases.
    ///
    /// Properties become one object in order; when names repeat, the first value is kept.
    /// - Parameter suite: the suite.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   after `finish()` or an earlier failure.
    public func write(_ suite: SuiteResult) throws {
        guard out.isOpen else { throw ReportError.alreadyFinished }
        out.bytes.append(contentsOf: suites == 0 ? "\n".utf8 : ",\n".utf8)
        suites += 1
        let suiteTally = suite.tally
        tally.add(suiteTally)

        out.bytes.append(contentsOf: #"{"name":"#.utf8)
        JSONText.appendString(suite.name, to: &out.bytes)
        out.bytes.append(contentsOf: #","file":"#.utf8)
        if let file = suite.file { JSONText.appendString(file, to: &out.bytes) } else { appendNull() }
        out.bytes.append(contentsOf: #","time":"#.utf8)
        DecimalText.appendSeconds(suite.time, to: &out.bytes)
        out.bytes.append(contentsOf: #","properties":{"#.utf8)
        var written: [String] = []
        for property in suite.properties where !written.contains(property.name) {
            if !written.isEmpty { out.bytes.append(UInt8(ascii: ",")) }
            written.append(property.name)
            JSONText.appendString(property.name, to: &out.bytes)
            out.bytes.append(UInt8(ascii: ":"))
            JSONText.appendString(property.value, to: &out.bytes)
        }
        out.bytes.append(contentsOf: #"},"tally":"#.utf8)
        append(suiteTally)
        out.bytes.append(contentsOf: #","cases":["#.utf8)
        for (index, result) in suite.cases.enumerated() {
            if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
            append(result)
            if out.bytes.count >= Self.flushThreshold { try out.flush() }
        }
        out.bytes.append(contentsOf: "]}".utf8)
        if out.bytes.count >= Self.flushThreshold { try out.flush() }
    }

    /// Closes the document with the overall tally and hands every remaining byte to the sink.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   when called twice or after an earlier failure.
    public func finish() throws {
        guard out.isOpen else { throw ReportError.alreadyFinished }
        out.bytes.append(contentsOf: suites == 0 ? "]".utf8 : "\n]".utf8)
        out.bytes.append(contentsOf: #","tally":"#.utf8)
        append(tally)
        out.bytes.append(contentsOf: "}\n".utf8)
        try out.flush()
        out.isOpen = false
    }

    private func appendNull() { out.bytes.append(contentsOf: "null".utf8) }

    private func append(_ tally: Tally) {
        out.bytes.append(contentsOf: #"{"tests":"#.utf8)
        DecimalText.appendInteger(tally.tests, to: &out.bytes)
        out.bytes.append(contentsOf: #","passed":"#.utf8)
        DecimalText.appendInteger(tally.passed, to: &out.bytes)
        out.bytes.append(contentsOf: #","failures":"#.utf8)
        DecimalText.appendInteger(tally.failures, to: &out.bytes)
        out.bytes.append(contentsOf: #","skipped":"#.utf8)
        DecimalText.appendInteger(tally.skipped, to: &out.bytes)
        out.bytes.append(contentsOf: #","errors":"#.utf8)
        DecimalText.appendInteger(tally.errors, to: &out.bytes)
        out.bytes.append(UInt8(ascii: "}"))
    }

    private func append(_ result: CaseResult) {
        out.bytes.append(contentsOf: #"{"name":"#.utf8)
        JSONText.appendString(result.name, to: &out.bytes)
        out.bytes.append(contentsOf: #","classname":"#.utf8)
        JSONText.appendString(result.classname, to: &out.bytes)
        out.bytes.append(contentsOf: #","outcome":"#.utf8)
        let failures: [Failure]
        let reason: String?
        switch result.outcome {
        case .passed: (failures, reason) = ([], nil); out.bytes.append(contentsOf: #""passed""#.utf8)
        case .failed(let found):
            (failures, reason) = (CaseFailure.rootCauseFirst(found), nil); out.bytes.append(contentsOf: #""failed""#.utf8)
        case .skipped(let why): (failures, reason) = ([], why); out.bytes.append(contentsOf: #""skipped""#.utf8)
        case .errored(let why): (failures, reason) = ([], why); out.bytes.append(contentsOf: #""errored""#.utf8)
        }
        out.bytes.append(contentsOf: #","time":"#.utf8)
        DecimalText.appendSeconds(result.time, to: &out.bytes)
        out.bytes.append(contentsOf: #","failures":["#.utf8)
        for (index, failure) in failures.enumerated() {
            if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
            out.bytes.append(contentsOf: #"{"rule":"#.utf8)
            JSONText.appendString(failure.ruleID, to: &out.bytes)
            out.bytes.append(contentsOf: #","message":"#.utf8)
            JSONText.appendString(failure.message, to: &out.bytes)
            out.bytes.append(contentsOf: #","body":"#.utf8)
            JSONText.appendString(failure.body, to: &out.bytes)
            out.bytes.append(UInt8(ascii: "}"))
        }
        out.bytes.append(contentsOf: #"],"reason":"#.utf8)
        if let reason { JSONText.appendString(reason, to: &out.bytes) } else { appendNull() }
        if let note = result.note {
            out.bytes.append(contentsOf: #","note":"#.utf8)
            JSONText.appendString(note, to: &out.bytes)
        }
        out.bytes.append(UInt8(ascii: "}"))
    }
}
