import Testing

@testable import Reports

@Suite("JUnit writer")
struct JUnitWriterTests {
    private func render(_ suites: [SuiteResult], name: String = "accord") throws -> BufferSink {
        let sink = BufferSink()
        let writer = try JUnitWriter(sink: sink, name: name)
        for suite in suites { try writer.write(suite) }
        try writer.finish()
        return sink
    }

    @Test("a suite with failures, skips, errors, properties and awkward text validates against junit-10.xsd")
    func mixedSuiteValidates() throws {
        let sink = try render([Fixtures.mixedSuite(), SuiteResult(name: "empty suite")], name: "accord <run> & \u{01}")
        try JUnitSchema.validate(xml: sink.bytes, schema: try Fixtures.junitSchemaBytes())

        let xml = sink.text
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"accord &lt;run&gt; &amp; \\u0001\">"))
        #expect(
            xml.contains(
                #"<testsuite name="push/002-rls-denied-not-a-wedge" tests="5" failures="2" errors="1" skipped="1" time="12346.200000" file="cases/push/002 &lt;rls&gt;.json">"#
            ))
        #expect(xml.contains(#"<property name="target" value="embedded &amp; &quot;quoted&quot;"/>"#))
        #expect(xml.contains(#"<property name="corpus commit" value="abc123\u0000"/>"#))
        #expect(xml.contains(#"<testcase name="step 01 push" classname="kizuna.push" time="0.001234"/>"#))
        #expect(
            xml.contains(#"<failure type="I-5" message="step 7 push: I-5 verdict 1 answers &lt;nothing&gt; &amp; more">I-5: step 7 push"#))
        #expect(xml.components(separatedBy: "<failure").count - 1 == 2, "one <failure> per failed testcase, two failed testcases")
        #expect(xml.contains("\n  {\n    &quot;expected&quot;"), "each finding's body follows it, indented")
        #expect(xml.contains("&quot;expected&quot;: &quot;a&lt;b&quot;,"))
        #expect(xml.contains(#"&quot;actual&quot;: &quot;\u0002&quot;"#))
        #expect(xml.contains(#"<error message="transport error: connection reset \u0007"/>"#))
        #expect(xml.contains(#"time="12345.678901""#))
        #expect(xml.contains(#"<failure message="failed without a recorded finding"/>"#))
        #expect(xml.contains(#"<testsuite name="empty suite" tests="0" failures="0" errors="0" skipped="0" time="0.000000"/>"#))
        #expect(xml.contains(#"\u0001\u000B\u001F"#))
        #expect(xml.contains(#"\uFFFE\uFFFF"#))
        #expect(xml.hasSuffix("</testsuites>\n"))
        // No raw control character other than tab, LF and CR survives.
        #expect(!sink.bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        #expect(sink.bytes.count(where: { $0 == 0x0D }) == 0, "CR is written as a character reference")
    }

    @Test("one testsuite and one testcase per input, in order")
    func structure() throws {
        let suites = (0..<3).map { index in
            SuiteResult(
                name: "suite \(index)",
                cases: (0..<4).map {
                    CaseResult(name: "case \($0)", classname: "kizuna.area", outcome: .passed)
                })
        }
        let xml = try render(suites).text
        #expect(xml.ranges(of: "<testsuite ").count == 3)
        #expect(xml.ranges(of: "<testcase ").count == 12)
        let first = try #require(xml.firstRange(of: "suite 0"))
        let last = try #require(xml.firstRange(of: "suite 2"))
        #expect(first.lowerBound < last.lowerBound)
    }

    @Test("a document with no suites is valid")
    func emptyDocument() throws {
        let sink = try render([])
        try JUnitSchema.validate(xml: sink.bytes, schema: try Fixtures.junitSchemaBytes())
        #expect(sink.text.contains(#"<testsuites name="accord"/>"#))
    }

    @Test("10,000 cases stream out in bounded chunks before finish and validate")
    func streams() throws {
        let sink = BufferSink()
        let writer = try JUnitWriter(sink: sink, name: "big")
        for suite in 0..<100 {
            try writer.write(
                SuiteResult(
                    name: "suite \(suite)",
                    cases: (0..<100).map {
                        CaseResult(
                            name: "case \($0)", classname: "kizuna.bulk",
                            outcome: $0 % 10 == 0 ? .failed([Failure(ruleID: "I-1", message: "m", body: "{}")]) : .passed,
                            time: Double($0) / 1000)
                    }))
        }
        #expect(sink.chunks > 10, "bytes reach the sink while writing, not only at finish")
        try writer.finish()
        #expect(sink.largestChunk <= 64 * 1024)
        try JUnitSchema.validate(xml: sink.bytes, schema: try Fixtures.junitSchemaBytes())
    }

    @Test("using the writer after finish throws alreadyFinished")
    func afterFinish() throws {
        let writer = try JUnitWriter(sink: BufferSink(), name: "x")
        try writer.finish()
        #expect(throws: ReportError.alreadyFinished) { try writer.write(SuiteResult(name: "late")) }
        #expect(throws: ReportError.alreadyFinished) { try writer.finish() }
    }

    @Test("a refusing sink surfaces as sinkFailed carrying the sink's error, then alreadyFinished")
    func sinkFailure() throws {
        let writer = try JUnitWriter(sink: RefusingSink(limit: 100), name: "x")
        let suite = SuiteResult(
            name: "s",
            cases: (0..<200).map {
                CaseResult(name: "case \($0)", classname: "kizuna.c", outcome: .passed)
            })
        let error = try #require(throws: ReportError.self) {
            try writer.write(suite)
            try writer.finish()
        }
        #expect(error == .sinkFailed)
        #expect(error.underlying is RefusingSink.Refused)
        #expect(throws: ReportError.alreadyFinished) { try writer.write(suite) }
    }

    @Test("a writer dropped unfinished writes nothing more to its sink")
    func abandoned() throws {
        let sink = BufferSink()
        do {
            let writer = try JUnitWriter(sink: sink, name: "x")
            try writer.write(SuiteResult(name: "s"))
        }
        #expect(sink.bytes.isEmpty)
    }

    @Test(
        "durations are plain decimals with six fraction digits",
        arguments: [
            (0.001234, "0.001234"), (0, "0.000000"), (1e-9, "0.000000"), (1e-5, "0.000010"),
            (-3, "0.000000"), (Double.nan, "0.000000"), (2.5, "2.500000"), (0.0000005, "0.000001"),
            (Double.infinity, "1000000000000.000000"), (86400.1, "86400.100000"),
        ])
    func durations(seconds: Double, expected: String) {
        #expect(DecimalText.seconds(seconds) == expected)
    }

    @Test("characters XML 1.0 forbids become \\uXXXX; the rest is untouched")
    func sanitizing() {
        #expect(XMLText.sanitize("plain <&> é 🎌\t\n\r") == "plain <&> é 🎌\t\n\r")
        #expect(XMLText.sanitize("a\u{00}b\u{1B}[31m\u{FFFE}\u{FFFD}") == "a\\u0000b\\u001B[31m\\uFFFE\u{FFFD}")
    }
}

@Suite("JUnit schema validation")
struct JUnitSchemaTests {
    @Test("a testsuite without tests is rejected, naming the attribute")
    func missingTests() throws {
        let xml = Array(#"<?xml version="1.0"?><testsuites><testsuite name="s" failures="0" errors="0"/></testsuites>"#.utf8)
        let error = try #require(throws: ReportError.self) {
            try JUnitSchema.validate(xml: xml, schema: try Fixtures.junitSchemaBytes())
        }
        #expect(error == .documentInvalid)
        #expect(error.description.contains("tests"))
        #expect(!error.messages.isEmpty)
    }

    @Test("a time with an exponent is rejected")
    func exponentTime() throws {
        let xml = Array(#"<testsuite name="s" tests="0" failures="0" errors="0" time="1e-05"/>"#.utf8)
        #expect(throws: ReportError.documentInvalid) {
            try JUnitSchema.validate(xml: xml, schema: try Fixtures.junitSchemaBytes())
        }
    }

    @Test("a hand-written valid document passes")
    func validDocument() throws {
        let xml = Array(
            #"<testsuites><testsuite name="s" tests="1" failures="0" errors="0" time="0.5"><testcase name="c"/></testsuite></testsuites>"#
                .utf8)
        try JUnitSchema.validate(xml: xml, schema: try Fixtures.junitSchemaBytes())
    }

    @Test("a document that is not well-formed is rejected as malformed")
    func malformed() throws {
        let error = try #require(throws: ReportError.self) {
            try JUnitSchema.validate(xml: Array("<testsuites><testsuite>".utf8), schema: try Fixtures.junitSchemaBytes())
        }
        #expect(error == .documentMalformed)
        #expect(error.description.contains("line"))
    }

    @Test("a schema that does not compile is reported as unusable")
    func unusableSchema() throws {
        #expect(throws: ReportError.schemaUnusable) {
            try JUnitSchema.validate(xml: Array("<testsuites/>".utf8), schema: Array("<xs:schema".utf8))
        }
    }
}
