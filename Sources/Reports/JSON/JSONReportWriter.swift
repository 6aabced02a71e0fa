import JSON

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
        CanonicalJSON.appendString(accordVersion, to: &out.bytes)
        out.bytes.append(contentsOf: #","suites":["#.utf8)
    }

    /// Writes one suite with its properties, tally and cases.
    ///
    /// Properties become one object in order; when names repeat, the first value is kept.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.alreadyFinished`
    ///   after `finish()` or an earlier failure.
    public func write(_ suite: SuiteResult) throws {
        guard out.isOpen else { throw ReportError.alreadyFinished }
        out.bytes.append(contentsOf: suites == 0 ? "\n".utf8 : ",\n".utf8)
        suites += 1
        let suiteTally = suite.tally
        tally.add(suiteTally)

        key("name", opening: true)
        string(suite.name)
        key("file")
        string(suite.file)
        key("time")
        DecimalText.appendSeconds(suite.time, to: &out.bytes)
        out.bytes.append(contentsOf: #","properties":{"#.utf8)
        var written: [String] = []
        for property in suite.properties where !written.contains(property.name) {
            if !written.isEmpty { out.bytes.append(UInt8(ascii: ",")) }
            written.append(property.name)
            CanonicalJSON.appendString(property.name, to: &out.bytes)
            out.bytes.append(UInt8(ascii: ":"))
            CanonicalJSON.appendString(property.value, to: &out.bytes)
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

    /// Writes `{"name":` for the first member of an object, `,"name":` for the others.
    private func key(_ name: String, opening: Bool = false) {
        out.bytes.append(UInt8(ascii: opening ? "{" : ","))
        CanonicalJSON.appendString(name, to: &out.bytes)
        out.bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a JSON string, or null for nil.
    private func string(_ value: String?) {
        if let value { CanonicalJSON.appendString(value, to: &out.bytes) } else { appendNull() }
    }

    private func append(_ tally: Tally) {
        let counts = [
            ("tests", tally.tests), ("passed", tally.passed), ("failures", tally.failures), ("skipped", tally.skipped),
            ("errors", tally.errors),
        ]
        for (index, (name, count)) in counts.enumerated() {
            key(name, opening: index == 0)
            DecimalText.appendInteger(count, to: &out.bytes)
        }
        out.bytes.append(UInt8(ascii: "}"))
    }

    private func append(_ result: CaseResult) {
        key("name", opening: true)
        string(result.name)
        key("classname")
        string(result.classname)
        key("outcome")
        let (outcome, failures, reason): (String, [Failure], String?) =
            switch result.outcome {
            case .passed: ("passed", [], nil)
            case .failed(let found): ("failed", CaseFailure.rootCauseFirst(found), nil)
            case .skipped(let why): ("skipped", [], why)
            case .errored(let why): ("errored", [], why)
            }
        string(outcome)
        key("time")
        DecimalText.appendSeconds(result.time, to: &out.bytes)
        key("failures")
        out.bytes.append(UInt8(ascii: "["))
        for (index, failure) in failures.enumerated() {
            if index > 0 { out.bytes.append(UInt8(ascii: ",")) }
            for (member, (name, text)) in [("rule", failure.ruleID.rawValue), ("message", failure.message), ("body", failure.body)]
                .enumerated()
            {
                key(name, opening: member == 0)
                string(text)
            }
            out.bytes.append(UInt8(ascii: "}"))
        }
        out.bytes.append(UInt8(ascii: "]"))
        key("reason")
        string(reason)
        if let note = result.note {
            key("note")
            string(note)
        }
        out.bytes.append(UInt8(ascii: "}"))
    }
}
