import Checks
import Foundation
import Testing

@testable import Reports

@Suite("HTML report writer")
struct HTMLReportWriterTests {
    static let hostile = "<script>alert(\"x\")</script> & 'q' <img src=x onerror=alert(1)>"

    /// A suite whose every text carries markup, quotes and ampersands, with a timeline.
    static func hostileSuite() -> SuiteResult {
        var suite = SuiteResult(
            name: "push/\(hostile)", file: "cases/\(hostile).json",
            properties: [.init(name: "lane", value: "server"), .init(name: "target", value: hostile)],
            cases: [
                CaseResult(name: "step 1 push \(hostile)", classname: "kizuna.\(hostile)", outcome: .passed, time: 0.25),
                CaseResult(
                    name: "step 2 pull", classname: "kizuna.push",
                    outcome: .failed([
                        Failure(
                            ruleID: "I-5", message: "step 2 pull: I-5 \(hostile)",
                            body: "expected: {\"a\":\"</pre>\"}\nactual: {\"a\":\"\(hostile)\"}")
                    ])),
                CaseResult(name: "postcondition 1", classname: "kizuna.push", outcome: .skipped(hostile)),
                CaseResult(name: "step 3 push", classname: "kizuna.push", outcome: .errored(hostile)),
            ], time: 0.5)
        for index in suite.cases.indices { suite.cases[index].step = index < 2 ? index + 1 : (index == 3 ? 3 : nil) }
        suite.timeline = SequenceTimeline(
            lifelines: [.init(name: "client \(hostile)", role: .client), .init(name: "server", role: .server)],
            events: [
                SequenceEvent(kind: .request, from: 0, to: 1, label: "push \(hostile)", detail: hostile, step: 1),
                SequenceEvent(kind: .answer, from: 1, to: 0, label: "1 verdicts", step: 1),
                SequenceEvent(kind: .request, from: 0, to: 1, label: "pull", step: 2),
                SequenceEvent(kind: .answer, from: 1, to: 0, label: "2 rows", step: 2),
                SequenceEvent(kind: .localWrite, from: 0, label: "local \(hostile)", step: 3),
                SequenceEvent(kind: .kill, from: 0, label: "SIGKILL after-push-sent, restart", step: 3),
            ])
        return suite
    }

    static func page(_ suites: [SuiteResult], title: String = "accord run") throws -> String {
        let sink = BufferSink()
        let writer = HTMLReportWriter(sink: sink, title: title, accordVersion: "0.1.0")
        for suite in suites { try writer.write(suite) }
        try writer.finish()
        return sink.text
    }

    @Test("hostile names, messages, reasons, bodies and labels are shown as text, never as markup")
    func escapesEverything() throws {
        let html = try Self.page([Self.hostileSuite()], title: Self.hostile)
        #expect(html.components(separatedBy: "<script").count == 2, "only the page's own inline script")
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror=alert(1)>"))
        #expect(!html.contains("'q'"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"))
        #expect(!html.contains("\"</pre>\""), "a body cannot close the diff's <pre>")
    }

    @Test("the page loads nothing: no URL, no src, no link, no import, no url()")
    func selfContained() throws {
        let html = try Self.page([Self.hostileSuite(), Fixtures.mixedSuite()])
        for needle in ["http://", "https://", "src=\"", "src='", "<link", "@import", "url(", "<iframe", "<object", "<embed"] {
            #expect(!html.contains(needle), "found \(needle)")
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</body></html>\n"))
    }

    @Test("every suite, case and failure of the run is on the page, failing suites open and passing ones folded")
    func holdsEverything() throws {
        let passing = SuiteResult(
            name: "pull/001-ok", properties: [.init(name: "lane", value: "check")],
            cases: [CaseResult(name: "step 1 pull", classname: "kizuna.pull", outcome: .passed)])
        let suites = [Self.hostileSuite(), Fixtures.mixedSuite(), passing]
        let html = try Self.page(suites)
        #expect(html.components(separatedBy: "<section class=\"suite\"").count - 1 == suites.count)
        #expect(html.components(separatedBy: "<tr class=\"case ").count - 1 == suites.map(\.cases.count).reduce(0, +))
        let failures = suites.flatMap(\.cases).map { result -> Int in
            if case .failed(let found) = result.outcome { return found.count }
            return 0
        }
        #expect(html.components(separatedBy: "<div class=\"failure\">").count - 1 == failures.reduce(0, +))
        #expect(
            html.contains("<section class=\"suite\" data-status=\"passed\" data-rules=\"\" data-name=\"pull/001-ok\"><details><summary>"))
        #expect(html.contains("<section class=\"suite\" data-status=\"failed\" data-rules=\"I-5\" data-name=\"push/&lt;script&gt;"))
        #expect(html.contains("&#39;q&#39; &lt;img src=x onerror=alert(1)&gt;\"><details open><summary>"))
        #expect(html.contains("<b>FAILED</b> 3 cases (2 failing)"))
    }

    @Test("a failure shows its rule's statement from the catalog and expected beside actual")
    func failureDetail() throws {
        let html = try Self.page([Self.hostileSuite()])
        #expect(html.contains("I-5: A verdicts response carries one verdict per pushed mutation"))
        #expect(html.contains("<table class=\"diff\"><thead><tr><th>expected</th><th>actual</th>"))
    }

    @Test("every id a report can carry has its statement on the page: rule folds, runner checks, obligations")
    func everyCatalogIDHasAStatement() throws {
        for entry in RuleCatalog.entries {
            let suite = SuiteResult(
                name: "s",
                cases: [
                    CaseResult(name: "step 1 push", classname: "k", outcome: .failed([Failure(ruleID: RuleID(entry.id), message: "m")]))
                ])
            let html = try Self.page([suite])
            #expect(!html.contains("not in the rule catalog"), "\(entry.id)")
        }
    }

    @Test("the failing step's marks are red and carry the rule id; an errored step too")
    func failingStepMarked() throws {
        let html = try Self.page([Self.hostileSuite()])
        let picture = try #require(html.components(separatedBy: "<svg").dropFirst().first)
        #expect(picture.components(separatedBy: "<g class=\"event request bad\">").count - 1 == 1, "step 2's request")
        #expect(picture.components(separatedBy: "<g class=\"event answer bad\">").count - 1 == 1, "step 2's answer")
        #expect(picture.components(separatedBy: "<g class=\"event request\">").count - 1 == 1, "step 1 passed")
        #expect(picture.contains("✗ I-5</text>"))
        #expect(picture.contains("<g class=\"event kill bad\">"))
        #expect(picture.contains("✗ error</text>"))
    }

    @Test("the summary counts suites and cases by lane and area, and failures by rule")
    func summary() throws {
        let html = try Self.page([Self.hostileSuite(), Fixtures.mixedSuite()])
        let summary = try #require(html.components(separatedBy: "<section id=\"summary\"").last)
        #expect(summary.contains("<tr class=\"bad\"><td>server</td><td>2</td><td>2</td><td>2</td><td>3</td><td>2</td><td>2</td></tr>"))
        #expect(summary.contains("data-rule-filter=\"I-3\">I-3</a></td><td>1</td><td>1</td>"))
        #expect(summary.contains("data-rule-filter=\"I-5\">I-5</a></td><td>2</td><td>2</td>"))
        #expect(html.range(of: "<section id=\"summary\"").map { html[..<$0.lowerBound].contains("</section>") } == true)
        #expect(html.contains(".summary{order:-1"), "written last, placed first")
    }

    @Test("expected and actual are pretty-printed and only the differing lines are marked")
    func diffMarksDifferences() {
        let diff = ExpectedActualDiff(body: "I-5 two findings\nexpected: {\"a\":1,\"b\":2}\nactual: {\"a\":1,\"b\":3}")
        #expect(diff.notes == ["I-5 two findings"])
        let html = diff.render()
        #expect(html.contains("<span class=\"missing\">  &quot;b&quot;: 2\n</span>"))
        #expect(html.contains("<span class=\"unexpected\">  &quot;b&quot;: 3\n</span>"))
        #expect(html.contains("\n  &quot;a&quot;: 1,\n"))
        #expect(!html.contains("<span class=\"missing\">  &quot;a&quot;"))
    }

    @Test("a refused sink fails the write and the writer refuses further use")
    func refusedSink() throws {
        let writer = HTMLReportWriter(sink: RefusingSink(), title: "t", accordVersion: "0")
        #expect(throws: ReportError.sinkFailed) { try writer.finish() }
        #expect(throws: ReportError.alreadyFinished) { try writer.write(Self.hostileSuite()) }
    }
}
