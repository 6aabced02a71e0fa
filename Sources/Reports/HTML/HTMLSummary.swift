import Checks

/// The page's summary: case counts by lane and by area, and failures by rule, gathered suite by
/// suite as the report is written.
struct HTMLSummary {
    /// Counts under one heading (a lane or an area): suites and cases by outcome.
    struct Row {
        var suites = 0
        var failedSuites = 0
        var tally = Tally()
    }

    private(set) var total = Tally()
    private(set) var suites = 0
    private(set) var failedSuites = 0
    private var lanes: [String: Row] = [:]
    private var areas: [String: Row] = [:]
    private var rules: [RuleID: (failures: Int, suites: Set<String>)] = [:]

    /// Counts one suite.
    /// - Parameters:
    ///   - suite: the suite.
    ///   - tally: its counts (a streamed recording's tally covers cases it did not keep).
    mutating func add(_ suite: SuiteResult, tally: Tally) {
        let failed = tally.failures + tally.errors > 0
        suites += 1
        if failed { failedSuites += 1 }
        total.add(tally)
        let lane = suite.properties.lane?.rawValue ?? "unknown"
        for (key, value) in [(lane, \HTMLSummary.lanes), (Self.area(of: suite), \HTMLSummary.areas)] {
            var row = self[keyPath: value][key, default: Row()]
            row.suites += 1
            if failed { row.failedSuites += 1 }
            row.tally.add(tally)
            self[keyPath: value][key] = row
        }
        for result in suite.cases {
            guard case .failed(let failures) = result.outcome else { continue }
            for failure in failures {
                rules[failure.ruleID, default: (0, [])].failures += 1
                rules[failure.ruleID, default: (0, [])].suites.insert(suite.name)
            }
        }
    }

    /// The area a suite belongs to: the part of its name before "/" (e.g. "push"), or
    /// "recording" for a recording.
    /// - Returns: the area.
    static func area(of suite: SuiteResult) -> String {
        if suite.file?.hasSuffix(".jsonl") == true || suite.name.hasSuffix(".jsonl") { return "recording" }
        guard let slash = suite.name.firstIndex(of: "/") else { return suite.name }
        return String(suite.name[..<slash])
    }

    /// The summary as an HTML section.
    /// - Returns: the markup.
    func render() -> String {
        let (style, word) =
            total.failures + total.errors > 0 ? ("bad", "FAILED") : (total.passed == 0 ? ("empty", "NOTHING CHECKED") : ("good", "PASSED"))
        var out = "<section id=\"summary\" class=\"summary\"><h2>Summary</h2>\n<p class=\"verdict \(style)\"><b>\(word)</b> "
        out += "\(suites) cases (\(failedSuites) failing), \(total.tests) steps: \(total.passed) passed, "
        out += "\(total.failures) failed, \(total.skipped) skipped, \(total.errors) errors</p>\n"
        out += "<div class=\"tables\">" + table("Lane", lanes) + table("Area", areas) + ruleTable() + "</div></section>\n"
        return out
    }

    private func table(_ heading: String, _ rows: [String: Row]) -> String {
        var out = "<table class=\"counts\"><thead><tr><th>\(heading)</th><th>cases</th><th>failing</th><th>passed</th>"
        out += "<th>failed</th><th>skipped</th><th>errors</th></tr></thead><tbody>\n"
        for key in rows.keys.sorted() {
            guard let row = rows[key] else { continue }
            let bad = row.failedSuites > 0 ? " class=\"bad\"" : ""
            out += "<tr\(bad)><td>\(HTMLText.escape(key))</td><td>\(row.suites)</td><td>\(row.failedSuites)</td>"
            out += "<td>\(row.tally.passed)</td><td>\(row.tally.failures)</td><td>\(row.tally.skipped)</td>"
            out += "<td>\(row.tally.errors)</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    private func ruleTable() -> String {
        var out = "<table class=\"counts rules\"><thead><tr><th>Rule</th><th>failures</th><th>suites</th><th>statement</th></tr>"
        out += "</thead><tbody>\n"
        if rules.isEmpty { out += "<tr><td colspan=\"4\">no rule failed</td></tr>\n" }
        for id in rules.keys.sorted() {
            guard let counts = rules[id] else { continue }
            let statement = RuleText.statement(of: id).map(HTMLText.escape) ?? "<i>not in the rule catalog</i>"
            out +=
                "<tr class=\"bad\"><td><a href=\"#\" data-rule-filter=\"\(HTMLText.token(id.rawValue))\">\(HTMLText.escape(id.rawValue))</a></td>"
            out += "<td>\(counts.failures)</td><td>\(counts.suites.count)</td><td>\(statement)</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }
}
