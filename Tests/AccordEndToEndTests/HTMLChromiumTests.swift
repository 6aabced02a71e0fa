import Foundation
import JSON
import Testing

/// The HTML report of a broken server, as a person sees it: opened in headless Chromium (Debian's
/// `chromium`, which scripts/setup installs), laid out, and read back from the rendered page
/// (issue 37). The server is `accord serve --fault verdict-dropped`: every push answer loses its
/// last verdict.
@Suite("HTML report in headless Chromium", .serialized)
struct HTMLChromiumTests {
    /// A page that loads the report in a frame and writes what the rendered report shows into
    /// its own DOM as JSON: the suites top to bottom with their status, the answer marks that
    /// carry verdicts, and each I-5 failure's expected and actual cells with the actual side's
    /// marked background.
    static let probe = """
        <!doctype html><html><body><pre id="out">pending</pre>
        <iframe id="report" src="report.html" style="width:1280px;height:4000px"></iframe>
        <script>
        document.getElementById('report').onload = function () {
          var page = this.contentDocument, out = {};
          var suites = Array.prototype.slice.call(page.querySelectorAll('section.suite'));
          out.dom = suites.map(function (s) { return s.getAttribute('data-status'); });
          suites.sort(function (a, b) { return a.getBoundingClientRect().top - b.getBoundingClientRect().top; });
          out.shown = suites.map(function (s) { return s.getAttribute('data-status') + ' ' + s.getAttribute('data-name'); });
          out.answers = Array.prototype.slice.call(page.querySelectorAll('section.suite[data-status=failed] g.event.answer text'))
            .map(function (t) { return t.textContent; }).filter(function (t) { return t.indexOf('verdict') >= 0; });
          out.i5 = Array.prototype.slice.call(page.querySelectorAll('.failure')).filter(function (f) {
            return (f.querySelector('.rule') || {}).textContent === 'I-5';
          }).map(function (f) {
            var cells = f.querySelectorAll('table.diff td');
            var marked = f.querySelector('table.diff td:last-child span.unexpected');
            return { expected: cells.length ? cells[0].textContent : '', actual: cells.length ? cells[1].textContent : '',
                     actualBackground: marked ? getComputedStyle(marked).backgroundColor : '' };
          });
          document.getElementById('out').textContent = JSON.stringify(out);
        };
        </script></body></html>
        """

    @Test(
        "a verdict-dropping server: the arrow draws the verdicts it sent beside the golden, I-5 shows both sides, failing suites come first"
    )
    func verdictDropped() async throws {
        let chromium = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "chromium is not installed (scripts/setup installs it)")
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "html-drop", "--fixtures", "--fault", "verdict-dropped"])
        let report = folder.appendingPathComponent("report.html")
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "html-drop", AccordBinary.sharedCorpus, "--jobs", "1",
            "--html", report.path,
        ])
        _ = served.stop()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("I-5 expected 2 verdicts, one per mutation, got 1: mutations sent ["),
            "the console line carries the values: \(result.stdout)")
        try Data(Self.probe.utf8).write(to: folder.appendingPathComponent("probe.html"))

        let dump = try await AccordBinary.runProgram(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--virtual-time-budget=10000",
                "--dump-dom", "file://" + folder.appendingPathComponent("probe.html").path,
            ])
        let text = try #require(dump.stdout.range(of: "<pre id=\"out\">").map { String(dump.stdout[$0.upperBound...]) })
        let json = try JSONParser.parse(Array(String(text.prefix { $0 != "<" }).utf8))

        let rank = ["failed": 0, "errored": 1, "skipped": 2, "passed": 3]
        let dom = (json["dom"]?.arrayValue ?? []).compactMap { $0.stringValue }.map { rank[$0] ?? 9 }
        let shown = (json["shown"]?.arrayValue ?? []).compactMap { $0.stringValue }
        let shownRanks = shown.map { rank[String($0.prefix { $0 != " " })] ?? 9 }
        #expect(dom != dom.sorted(), "the run writes suites in corpus order, failing and passing mixed")
        #expect(shownRanks == shownRanks.sorted(), "on screen: failing suites first, then errored, skipped, passed: \(shown)")
        #expect(shown.first?.hasPrefix("failed ") == true)

        let answers = (json["answers"]?.arrayValue ?? []).compactMap { $0.stringValue }
        #expect(answers.contains("1 verdict (golden: 2 verdicts)"), "the arrow says what the server sent: \(answers)")
        #expect(!answers.contains("2 verdicts"), "no failing push draws the golden count as if the server sent it: \(answers)")

        let failures = json["i5"]?.arrayValue ?? []
        #expect(!failures.isEmpty)
        for failure in failures {
            #expect(failure["expected"]?.stringValue?.contains("00000000-0000-4000-8000-f1") == true, "expected: the mutations sent")
            let actual = failure["actual"]?.stringValue ?? ""
            #expect(actual.hasPrefix("["), "actual: the verdicts got, a list even when empty: \(actual)")
            let background = failure["actualBackground"]?.stringValue ?? ""
            #expect(
                background.isEmpty || background == "rgb(255, 215, 213)", "what the server sent is marked red, never green: \(background)")
        }
        #expect(
            failures.contains { $0["actualBackground"]?.stringValue == "rgb(255, 215, 213)" },
            "at least one I-5 marks what the server sent instead, in red")
    }
}
