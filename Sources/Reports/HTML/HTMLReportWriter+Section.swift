extension HTMLReportWriter {
    /// One suite's section: a folded or open `<details>` with its properties, sequence picture
    /// and cases, each failure with its rule, statement and expected versus actual.
    /// - Parameters:
    ///   - suite: the suite.
    ///   - tally: its counts.
    /// - Returns: the markup.
    static func section(_ suite: SuiteResult, tally: Tally) -> String {
        let status = status(tally)
        var rules: [String] = []
        var failing: [Int: [String]] = [:]
        for result in suite.cases {
            switch result.outcome {
            case .failed(let failures):
                for failure in failures where !rules.contains(failure.ruleID.rawValue) { rules.append(failure.ruleID.rawValue) }
                if let step = result.step { failing[step, default: []] += failures.map(\.ruleID.rawValue) }
            case .errored:
                if let step = result.step { failing[step, default: []].append("error") }
            case .passed, .skipped: break
            }
        }
        failing = failing.mapValues { ids in ids.reduce(into: []) { kept, id in if !kept.contains(id) { kept.append(id) } } }
        let tokens = rules.map(HTMLText.token).joined(separator: " ")
        var out =
            "<section class=\"suite\" data-status=\"\(status)\" data-rules=\"\(tokens)\" data-name=\"\(HTMLText.escape(suite.name))\">"
        out += "<details\(status == "failed" || status == "errored" ? " open" : "")><summary>"
        out += "<span class=\"badge \(status)\">\(status)</span> <b>\(HTMLText.escape(suite.name))</b> <span class=\"muted\">"
        if let lane = suite.properties.lane { out += HTMLText.escape(lane.rawValue) + " · " }
        out += "\(tally.tests) cases: \(tally.passed) passed, \(tally.failures) failed, \(tally.skipped) skipped, "
        out += "\(tally.errors) errors · \(DecimalText.seconds(suite.time)) s"
        if !rules.isEmpty { out += " · " + HTMLText.escape(rules.joined(separator: ", ")) }
        out += "</span></summary>\n<div class=\"body\">"
        out += properties(suite)
        if let timeline = suite.timeline {
            out += "<div class=\"picture\">" + SequencePicture(timeline: timeline, failing: failing).render() + "</div>"
        }
        out += "<table class=\"cases\"><thead><tr><th>status</th><th>case</th><th>time (s)</th><th>detail</th></tr></thead><tbody>\n"
        for result in suite.cases { out += row(result) }
        if tally.tests > suite.cases.count {
            out += "<tr><td colspan=\"4\" class=\"muted\">\(tally.tests - suite.cases.count) passing cases not kept</td></tr>\n"
        }
        return out + "</tbody></table></div></details></section>\n"
    }

    private static func properties(_ suite: SuiteResult) -> String {
        var parts: [String] = []
        if let file = suite.file { parts.append("<b>file</b> " + HTMLText.escape(file)) }
        for property in suite.properties { parts.append("<b>\(HTMLText.escape(property.name))</b> " + HTMLText.escape(property.value)) }
        return parts.isEmpty ? "" : "<p class=\"props\">" + parts.joined(separator: " · ") + "</p>\n"
    }

    private static func row(_ result: CaseResult) -> String {
        let status: String
        var detail = ""
        switch result.outcome {
        case .passed: status = "passed"
        case .skipped(let reason): status = "skipped"; detail = HTMLText.escape(reason)
        case .errored(let reason): status = "errored"; detail = "<pre>" + HTMLText.escape(reason) + "</pre>"
        case .failed(let failures):
            status = "failed"
            detail = failures.isEmpty ? "failed" : failures.map(failure).joined()
        }
        if let note = result.note { detail += (detail.isEmpty ? "" : "<br>") + "<span class=\"muted\">\(HTMLText.escape(note))</span>" }
        var out = "<tr class=\"case \(status)\"><td><span class=\"badge \(status)\">\(status)</span></td>"
        out += "<td>\(HTMLText.escape(result.name))<br><span class=\"muted\">\(HTMLText.escape(result.classname))</span></td>"
        out += "<td class=\"time\">\(DecimalText.seconds(result.time))</td><td>\(detail)</td></tr>\n"
        return out
    }

    private static func failure(_ failure: Failure) -> String {
        var out = "<div class=\"failure\"><p><span class=\"rule\">\(HTMLText.escape(failure.ruleID.rawValue))</span> "
        out += HTMLText.escape(failure.message) + "</p>"
        if let statement = RuleText.statement(of: failure.ruleID) {
            out += "<p class=\"statement\">\(HTMLText.escape(failure.ruleID.rawValue)): \(HTMLText.escape(statement))"
            if let source = RuleText.source(of: failure.ruleID) { out += " <span class=\"source\">(\(HTMLText.escape(source)))</span>" }
            out += "</p>"
        }
        if !failure.body.isEmpty { out += ExpectedActualDiff(body: failure.body).render() }
        return out + "</div>"
    }
}
