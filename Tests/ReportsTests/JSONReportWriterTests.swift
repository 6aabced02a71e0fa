import JSON
import Reports
import Testing

@Suite("JSON report writer")
struct JSONReportWriterTests {
    private func render(_ suites: [SuiteResult], version: String = "0.1.0") throws -> (BufferSink, JSONValue) {
        let sink = BufferSink()
        let writer = JSONReportWriter(sink: sink, accordVersion: version)
        for suite in suites { try writer.write(suite) }
        try writer.finish()
        return (sink, try JSONParser.parse(sink.bytes))
    }

    @Test("suites, properties, tallies and every outcome parse back with their fields")
    func mixedSuite() throws {
        let (_, report) = try render([Fixtures.mixedSuite(), SuiteResult(name: "empty")], version: "1.2.3 \"beta\"")
        #expect(report["accord_version"]?.stringValue == "1.2.3 \"beta\"")
        let suites = try #require(report["suites"]?.arrayValue)
        try #require(suites.count == 2)

        let suite = suites[0]
        #expect(suite["name"]?.stringValue == "push/002-rls-denied-not-a-wedge")
        #expect(suite["file"]?.stringValue == "cases/push/002 <rls>.json")
        #expect(suite["time"]?.numberValue?.literal == "12346.200000")
        let properties = try #require(suite["properties"]?.objectValue)
        #expect(properties.keys == ["lane", "target", "corpus commit", "accord version"])
        #expect(properties["target"]?.stringValue == "embedded & \"quoted\"")
        #expect(properties["corpus commit"]?.stringValue == "abc123\u{00}")
        #expect(tally(suite["tally"]) == [5, 1, 2, 1, 1])

        let cases = try #require(suite["cases"]?.arrayValue)
        try #require(cases.count == 5)
        #expect(cases.map { $0["outcome"]?.stringValue } == ["passed", "failed", "skipped", "errored", "failed"])
        #expect(cases[0]["name"]?.stringValue == "step 01 push")
        #expect(cases[0]["classname"]?.stringValue == "kizuna.push")
        #expect(cases[0]["time"]?.numberValue?.literal == "0.001234")
        #expect(cases[0]["failures"]?.arrayValue?.isEmpty == true)
        #expect(cases[0]["reason"]?.isNull == true)

        let failures = try #require(cases[1]["failures"]?.arrayValue)
        try #require(failures.count == 2)
        #expect(failures[0]["rule"]?.stringValue == "I-5")
        #expect(failures[0]["message"]?.stringValue == "step 7 push: I-5 verdict 1 answers <nothing> & more")
        #expect(failures[0]["body"]?.stringValue == "{\n  \"expected\": \"a<b\",\n  \"actual\": \"\u{02}\"\n}")
        #expect(failures[1]["message"]?.stringValue == Fixtures.awkward, "awkward text round-trips exactly")
        #expect(failures[1]["body"]?.stringValue == "")

        #expect(cases[2]["reason"]?.stringValue == "known failing: \(Fixtures.awkward)")
        #expect(cases[3]["reason"]?.stringValue == "transport error: connection reset \u{07}")
        #expect(cases[4]["name"]?.stringValue == "step 10 \(Fixtures.awkward)")
        #expect(cases[4]["failures"]?.arrayValue?.isEmpty == true)

        #expect(suites[1]["file"]?.isNull == true)
        #expect(suites[1]["properties"]?.objectValue?.count == 0)
        #expect(suites[1]["cases"]?.arrayValue?.isEmpty == true)
        #expect(tally(report["tally"]) == [5, 1, 2, 1, 1])
    }

    @Test("an empty report is one valid document with a zero tally")
    func empty() throws {
        let (sink, report) = try render([])
        #expect(
            sink.text == #"{"accord_version":"0.1.0","suites":[],"tally":{"tests":0,"passed":0,"failures":0,"skipped":0,"errors":0}}"#
                + "\n")
        #expect(report["suites"]?.arrayValue?.isEmpty == true)
    }

    @Test("the overall tally sums every suite, and each suite sits on its own line")
    func totals() throws {
        let suites = (0..<3).map { index in
            SuiteResult(
                name: "s\(index)",
                cases: [
                    CaseResult(name: "a", classname: "kizuna.x", outcome: .passed),
                    CaseResult(name: "b", classname: "kizuna.x", outcome: .skipped("later")),
                ])
        }
        let (sink, report) = try render(suites)
        #expect(tally(report["tally"]) == [6, 3, 0, 3, 0])
        #expect(sink.text.split(separator: "\n").count == 5)
    }

    @Test("repeated property names keep the first value, so the object has unique keys")
    func duplicateProperties() throws {
        let suite = SuiteResult(name: "s", properties: [.init(name: "lane", value: "one"), .init(name: "lane", value: "two")])
        let (_, report) = try render([suite])
        let properties = try #require(report["suites"]?.arrayValue?.first?["properties"]?.objectValue)
        #expect(properties.firstDuplicateKey == nil)
        #expect(properties["lane"]?.stringValue == "one")
    }

    @Test("large reports reach the sink in chunks while writing")
    func streams() throws {
        let sink = BufferSink()
        let writer = JSONReportWriter(sink: sink, accordVersion: "0")
        let suite = SuiteResult(
            name: "big",
            cases: (0..<5_000).map {
                CaseResult(name: "case \($0)", classname: "kizuna.bulk", outcome: .failed([Failure(ruleID: "I-1", message: "m \($0)")]))
            })
        try writer.write(suite)
        #expect(sink.chunks > 0)
        try writer.finish()
        let report = try JSONParser.parse(sink.bytes)
        #expect(report["suites"]?.arrayValue?.first?["cases"]?.arrayValue?.count == 5_000)
    }

    @Test("a refusing sink surfaces as sinkFailed, then alreadyFinished")
    func sinkFailure() throws {
        let writer = JSONReportWriter(sink: RefusingSink(), accordVersion: "0")
        try writer.write(SuiteResult(name: "s"))
        let error = try #require(throws: ReportError.self) { try writer.finish() }
        #expect(error == .sinkFailed)
        #expect(error.underlying is RefusingSink.Refused)
        #expect(throws: ReportError.alreadyFinished) { try writer.write(SuiteResult(name: "late")) }
    }

    private func tally(_ value: JSONValue?) -> [Int?] {
        ["tests", "passed", "failures", "skipped", "errors"].map { value?[$0]?.numberValue?.intValue }
    }
}
