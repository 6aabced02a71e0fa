import Foundation
import JSON
import Testing

@Suite("accord --html writes one self-contained page holding the whole run")
struct HTMLReportTests {
    /// Text as the page escapes it.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The page's section for a suite, from its opening tag to the next section (a suite or the summary).
    static func section(_ html: String, suite: String) -> String? {
        guard let start = html.range(of: "data-name=\"\(escaped(suite))\">") else { return nil }
        let rest = html[start.upperBound...]
        let end = rest.range(of: "<section ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Expects nothing on the page to load from elsewhere: no resource attribute, no style
    /// sheet link or import, no CSS url(), and a URL only as escaped text (a recording's
    /// upstream, say), never in an attribute or a script.
    static func expectSelfContained(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for needle in ["src=", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img", "href=\"http", "href='http"] {
            #expect(!html.contains(needle), "found \(needle)", sourceLocation: sourceLocation)
        }
        for scheme in ["http://", "https://"] {
            var rest = html[...]
            while let found = rest.range(of: scheme) {
                let before = rest[..<found.lowerBound].suffix(2)
                #expect(
                    !before.hasSuffix("\"") && !before.hasSuffix("'") && !before.hasSuffix("("), "a URL in markup",
                    sourceLocation: sourceLocation)
                rest = rest[found.upperBound...]
            }
        }
        #expect(html.components(separatedBy: "<script").count == 2, "one inline script", sourceLocation: sourceLocation)
        #expect(html.contains("<script>(function(){"), sourceLocation: sourceLocation)
    }

    /// Expects every suite, case and failure of a JSON report on the page.
    static func expectHoldsRun(_ html: String, json: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try JSONParser.parse([UInt8](try Data(contentsOf: json)))
        let suites = try #require(report["suites"]?.arrayValue, sourceLocation: sourceLocation)
        #expect(html.components(separatedBy: "<section class=\"suite\"").count - 1 == suites.count, sourceLocation: sourceLocation)
        var cases = 0
        for suite in suites {
            let name = try #require(suite["name"]?.stringValue, sourceLocation: sourceLocation)
            let found = try #require(Self.section(html, suite: name), "no section for \(name)", sourceLocation: sourceLocation)
            let results = suite["cases"]?.arrayValue ?? []
            cases += results.count
            #expect(
                found.components(separatedBy: "<tr class=\"case ").count - 1 == results.count, "\(name)", sourceLocation: sourceLocation)
            for result in results {
                let caseName = result["name"]?.stringValue ?? "?"
                #expect(found.contains(escaped(caseName) + "<br>"), "\(name) › \(caseName)", sourceLocation: sourceLocation)
                for failure in result["failures"]?.arrayValue ?? [] {
                    let message = failure["message"]?.stringValue ?? "?"
                    let rule = failure["rule"]?.stringValue ?? "?"
                    #expect(
                        found.contains("<span class=\"rule\">\(escaped(rule))</span> \(escaped(message))</p>"), "\(message)",
                        sourceLocation: sourceLocation)
                }
            }
        }
        #expect(html.components(separatedBy: "<tr class=\"case ").count - 1 == cases, sourceLocation: sourceLocation)
    }

    @Test("a green server-lane run over the corpus, the Conformance cases and the recordings: every suite and case, folded")
    func greenServerRun() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("run.html")
        let json = folder.appendingPathComponent("run.json")
        let recordings = ["multi-user-sync", "schema-reset", "wall-clock-deletes"].map {
            AccordBinary.packageRoot + "/Recordings/\($0).jsonl"
        }
        let result = try await AccordBinary.run(
            ["run", "--server", "embedded", AccordBinary.packageRoot + "/Conformance", AccordBinary.sharedCorpus] + recordings + [
                "--scenarios", AccordBinary.packageRoot + "/../shared/corpus-scenarios.json", "--html", html.path, "--json", json.path,
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let page = try String(contentsOf: html, encoding: .utf8)
        Self.expectSelfContained(page)
        try Self.expectHoldsRun(page, json: json)
        #expect(!page.contains("<details open>"), "a green run's suites are all folded")
        #expect(page.contains("<b>PASSED</b>"))
        let recording = try #require(Self.section(page, suite: "multi-user-sync.jsonl"))
        #expect(recording.components(separatedBy: "<line class=\"lifeline client\"").count - 1 == 3, "one lifeline per client session")
        #expect(recording.components(separatedBy: "<line class=\"lifeline server\"").count - 1 == 1)
        let push = try #require(Self.section(page, suite: "push/002-rls-denied-not-a-wedge"))
        for kind in ["request", "answer", "local-write", "server-change", "check"] {
            #expect(push.contains("<g class=\"event \(kind)\">"), "\(kind) marks")
        }
    }

    @Test("a failing check: the failing step is red with its rule, its statement and expected beside actual")
    func failingCheck() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/push/002-rls-denied-not-a-wedge.json"
        let original = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
        let first = try #require(original.value(at: try ptr("/steps/6/response/verdicts/0")))
        let second = try #require(original.value(at: try ptr("/steps/6/response/verdicts/1")))
        let reversed = original.replacing(at: try ptr("/steps/6/response/verdicts/0"), with: second)
            .replacing(at: try ptr("/steps/6/response/verdicts/1"), with: first)
        let file = folder.appendingPathComponent("push-002.json")
        try Data(CanonicalJSON.render(reversed)).write(to: file)
        let html = folder.appendingPathComponent("check.html")
        let json = folder.appendingPathComponent("check.json")
        let result = try await AccordBinary.run(["check", file.path, "--html", html.path, "--json", json.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let page = try String(contentsOf: html, encoding: .utf8)
        Self.expectSelfContained(page)
        try Self.expectHoldsRun(page, json: json)
        let section = try #require(Self.section(page, suite: "push/002-rls-denied-not-a-wedge"))
        #expect(page.contains("data-status=\"failed\" data-rules=\"I-5\""))
        #expect(section.hasPrefix("<details open>"))
        #expect(section.contains("<g class=\"event request bad\">"), "step 7's push is red")
        #expect(section.components(separatedBy: " bad\">").count - 1 == 2, "only step 7's request and answer")
        #expect(section.contains("✗ I-5</text>"))
        #expect(section.contains("I-5: A verdicts response carries one verdict per pushed mutation"))
        #expect(section.contains("<table class=\"diff\">"))
    }

    @Test("the kill matrix marks each suite's kill on its client's lifeline")
    func killMatrix() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("kill.html")
        let json = folder.appendingPathComponent("kill.json")
        let result = try await AccordBinary.run(
            [
                "run", "--client", "accord driver", "--kill-matrix", AccordBinary.sharedCorpus, "--filter", "push/002-*", "--html",
                html.path,
                "--json", json.path,
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let page = try String(contentsOf: html, encoding: .utf8)
        Self.expectSelfContained(page)
        try Self.expectHoldsRun(page, json: json)
        let sections = page.components(separatedBy: "<section class=\"suite\"").dropFirst()
        #expect(sections.count >= 3)
        for section in sections {
            let point = try #require(section.components(separatedBy: " @ ").dropFirst().first?.components(separatedBy: "\"").first)
            #expect(section.components(separatedBy: "<g class=\"event kill\">").count - 1 == 1, "\(point)")
            #expect(section.contains("SIGKILL \(point)"))
        }
    }

    @Test("--html naming the same file as --junit, or an input, is refused before anything runs")
    func clobberRefused() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.xml").path
        let same = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", out, "--html", out])
        #expect(same.status == 64)
        #expect(same.stderr.contains("--html names the same file as another report"))
        let input = AccordBinary.packageRoot + "/Recordings/schema-reset.jsonl"
        let clobber = try await AccordBinary.run(["check", input, "--html", input])
        #expect(clobber.status == 64)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
