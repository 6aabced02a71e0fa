internal import CLibXML2

/// A streaming JUnit XML writer: one `<testsuites>` document, one `<testsuite>` per call.
///
/// Built on libxml2's `xmlTextWriter`; bytes go to the sink in chunks of a few kilobytes as they
/// are produced, so memory stays flat however many suites are written. The root element carries
/// only `name`: totals are not known while streaming and the schema does not require them.
/// Text that XML 1.0 cannot carry (control characters other than tab, LF and CR, U+FFFE, U+FFFF)
/// is replaced by `\uXXXX`. Not thread-safe; use one writer from one task at a time.
public final class JUnitWriter {
    /// libxml2's writer; nil once finished, failed or abandoned.
    private var writer: OpaquePointer?
    private let box: SinkBox
    /// Reused for numbers, so that writing them allocates nothing.
    private var scratch: [UInt8] = []

    /// Starts a document, writing the XML declaration and the opening `<testsuites>` element.
    /// - Parameters:
    ///   - sink: where the bytes go; kept alive until the writer is finished or dropped.
    ///   - name: the `name` of the root `<testsuites>` element.
    /// - Throws: `ReportError.writerFailed` when libxml2 cannot set up, `ReportError.sinkFailed`
    ///   when the sink refuses bytes.
    public init(sink: ReportSink, name: String) throws {
        LibXML2.initialized
        box = SinkBox(sink: sink)
        scratch.reserveCapacity(32)
        guard let buffer = SinkBox.outputBuffer(for: box) else {
            throw ReportError.writer("xmlOutputBufferCreateIO")
        }
        guard let writer = xmlNewTextWriter(buffer) else {
            box.discarding = true
            xmlOutputBufferClose(buffer)
            throw ReportError.writer("xmlNewTextWriter")
        }
        self.writer = writer
        xmlTextWriterSetIndent(writer, 1)
        xmlTextWriterSetIndentString(writer, Self.indent.utf8Start)
        try check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil), "xmlTextWriterStartDocument")
        try start("testsuites")
        try attribute("name", name)
    }

    deinit {
        abandon()
    }

    /// Closes every open element, flushes the document to the sink and releases libxml2's writer.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.writerFailed`
    ///   when libxml2 fails, `ReportError.alreadyFinished` when called twice or after a failure.
    public func finish() throws {
        guard let writer else { throw ReportError.alreadyFinished }
        try check(xmlTextWriterEndDocument(writer), "xmlTextWriterEndDocument")
        try check(xmlTextWriterFlush(writer), "xmlTextWriterFlush")
        self.writer = nil
        xmlFreeTextWriter(writer)
        if let error = box.error { throw ReportError.sink(error) }
    }

    /// Writes one suite as a `<testsuite>` element with its properties and test cases.
    ///
    /// Counts come from `suite.tally`; a failed case has one `<failure>`, its `CaseFailure`: the
    /// root cause's rule id as `type` and message as `message`, every finding in the content
    /// (CI dashboards show one failure per testcase, so the protocol rule must be that one); skipped and errored
    /// cases carry their reason as the `message` of `<skipped>` and `<error>`.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.writerFailed`
    ///   when libxml2 fails, `ReportError.alreadyFinished` after `finish()` or a failure.
    public func write(_ suite: SuiteResult) throws {
        let tally = suite.tally
        try start("testsuite")
        try attribute("name", suite.name)
        try attribute("tests", count: tally.tests)
        try attribute("failures", count: tally.failures)
        try attribute("errors", count: tally.errors)
        try attribute("skipped", count: tally.skipped)
        try attribute("time", seconds: suite.time)
        if let file = suite.file { try attribute("file", file) }
        if !suite.properties.isEmpty {
            try start("properties")
            for property in suite.properties {
                try start("property")
                try attribute("name", property.name)
                try attribute("value", property.value)
                try end()
            }
            try end()
        }
        for result in suite.cases { try write(result) }
        try end()
    }

    /// The message of a `<failure>` written for a failed case that carries no `Failure`.
    static let unexplainedFailure = CaseFailure.unexplained

    private func write(_ result: CaseResult) throws {
        try start("testcase")
        try attribute("name", result.name)
        try attribute("classname", result.classname)
        try attribute("time", seconds: result.time)
        switch result.outcome {
        case .passed:
            break
        case .failed(let failures):
            let failure = CaseFailure(failures)
            try start("failure")
            if let ruleID = failure.ruleID { try attribute("type", ruleID.rawValue) }
            try attribute("message", failure.message)
            if !failure.body.isEmpty { try text(failure.body) }
            try end()
        case .skipped(let reason):
            try start("skipped")
            try attribute("message", reason)
            try end()
        case .errored(let reason):
            try start("error")
            try attribute("message", reason)
            try end()
        }
        if let note = result.note {
            try start("system-out")
            try text(note)
            try end()
        }
        try end()
    }

    // MARK: - Primitives

    private static let indent: StaticString = "  "

    /// Drops the document: libxml2's buffered bytes are discarded, not written.
    private func abandon() {
        guard let writer else { return }
        self.writer = nil
        box.discarding = true
        xmlFreeTextWriter(writer)
    }

    /// Turns a libxml2 result into an error, abandoning the document on failure.
    @inline(__always)
    private func check(_ result: Int32, _ operation: StaticString) throws {
        if result >= 0 { return }
        let sinkError = box.error
        abandon()
        if let sinkError { throw ReportError.sink(sinkError) }
        throw ReportError.writer(operation.description)
    }

    /// Opens an element.
    private func start(_ name: StaticString) throws {
        guard let writer else { throw ReportError.alreadyFinished }
        try check(xmlTextWriterStartElement(writer, name.utf8Start), "xmlTextWriterStartElement")
    }

    /// Closes the innermost open element.
    private func end() throws {
        guard let writer else { throw ReportError.alreadyFinished }
        try check(xmlTextWriterEndElement(writer), "xmlTextWriterEndElement")
    }

    /// Writes an attribute of the open element.
    private func attribute(_ name: StaticString, _ value: String) throws {
        guard let writer else { throw ReportError.alreadyFinished }
        let result = XMLText.withCString(value) { xmlTextWriterWriteAttribute(writer, name.utf8Start, $0) }
        try check(result, "xmlTextWriterWriteAttribute")
    }

    /// Writes an integer attribute of the open element.
    private func attribute(_ name: StaticString, count: Int) throws {
        scratch.removeAll(keepingCapacity: true)
        DecimalText.appendInteger(count, to: &scratch)
        try scratchAttribute(name)
    }

    /// Writes a duration attribute of the open element, as plain decimal seconds.
    private func attribute(_ name: StaticString, seconds: Double) throws {
        scratch.removeAll(keepingCapacity: true)
        DecimalText.appendSeconds(seconds, to: &scratch)
        try scratchAttribute(name)
    }

    /// Writes text content inside the open element.
    private func text(_ value: String) throws {
        guard let writer else { throw ReportError.alreadyFinished }
        let result = XMLText.withCString(value) { xmlTextWriterWriteString(writer, $0) }
        try check(result, "xmlTextWriterWriteString")
    }

    private func scratchAttribute(_ name: StaticString) throws {
        guard let writer else { throw ReportError.alreadyFinished }
        scratch.append(0)
        let result = scratch.withUnsafeBufferPointer { value -> Int32 in
            guard let base = value.baseAddress else { return -1 }
            return xmlTextWriterWriteAttribute(writer, name.utf8Start, base)
        }
        try check(result, "xmlTextWriterWriteAttribute")
    }
}
