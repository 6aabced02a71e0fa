import Reports

extension Expectations {
    /// The outcome a suite ended with.
    /// - Returns: failing when anything failed or errored; not applicable when a step did not
    ///   apply or the target does not support the case; skipped when no answer was compared; else
    ///   the suite's tier (pass or bound).
    public static func outcome(of suite: SuiteResult) -> Outcome {
        let tally = suite.tally
        if tally.failures + tally.errors > 0 { return .knownFailing }
        let notApplicable = suite.cases.contains { result in
            if case .skipped(let reason) = result.outcome { return reason.hasPrefix("not applicable") || reason.hasPrefix("unsupported") }
            return false
        }
        if notApplicable { return .notApplicable }
        switch suite.properties.first(where: { $0.name == "tier" })?.value {
        case "bound": return .bound
        case "pass": return .pass
        default: return .skipped
        }
    }

    /// A failing suite for entries that name no case of the inputs (a typo or a removed case),
    /// and, for an expectations file, for cases of the inputs it does not list; nil when neither.
    /// - Parameter caseIDs: every case id the inputs hold.
    /// - Returns: the suite, or nil.
    public func unknownEntries(among caseIDs: Set<String>) -> SuiteResult? {
        let unknown = caseIDs.isEmpty ? [] : self.caseIDs.filter { !caseIDs.contains(Self.exchange(of: $0)?.recording ?? $0) }.sorted()
        guard !unknown.isEmpty else { return nil }
        let failures = unknown.map {
            Failure(
                ruleID: "AC-KNOWN-FAILING",
                message: "\(file.map { "\($0): " } ?? "")entry \($0) names no case of the inputs: fix or remove it")
        }
        return SuiteResult(
            name: "expectations", cases: [CaseResult(name: "entries", classname: "kizuna.expectations", outcome: .failed(failures))])
    }

    /// The suite as reported under these expectations: a case expected to fail that failed is
    /// reported skipped (the failure and the reason in its message); any other difference between
    /// the expected and the actual outcome, an unexpected pass included, adds a failing
    /// "expectation" case.
    /// - Returns: the suite to report.
    public func apply(to suite: SuiteResult) -> SuiteResult {
        let suite = applyExchanges(to: suite)
        let actual = Self.outcome(of: suite)
        let classname = suite.cases.first?.classname ?? CaseResult.classname(lane: "expectations", caseID: suite.name)
        guard let expected = entries[suite.name] else {
            guard isComplete else { return suite }
            return adding(
                "\(suite.name) ended \(actual.rawValue) and is not in \(file ?? "the expectations file"): add it with its outcome",
                to: suite, classname: classname)
        }
        if expected.outcome == .knownFailing && actual == .knownFailing {
            var reported = suite
            let why = expected.reason.map { "\($0); " } ?? ""
            reported.cases = suite.cases.map { result in
                var copy = result
                switch result.outcome {
                case .failed(let failures): copy.outcome = .skipped("known failing: \(why)" + CaseFailure(failures).message)
                case .errored(let reason): copy.outcome = .skipped("known failing: \(why)" + reason)
                default: break
                }
                return copy
            }
            return reported
        }
        if expected.outcome == actual || (!isComplete && expected.outcome != .knownFailing) { return suite }
        if expected.outcome == .knownFailing {
            return adding(
                "\(suite.name) is listed as known failing but ended \(actual.rawValue): remove the stale entry", to: suite,
                classname: classname)
        }
        return adding(
            "\(suite.name) was expected to end \(expected.outcome.rawValue) but ended \(actual.rawValue): fix the server or update \(file ?? "the expectations file")",
            to: suite, classname: classname)
    }

    private func adding(_ message: String, to suite: SuiteResult, classname: String) -> SuiteResult {
        var reported = suite
        let name = entries[suite.name]?.outcome == .knownFailing ? "known-failing entry" : "expectation"
        reported.cases.append(
            CaseResult(name: name, classname: classname, outcome: .failed([Failure(ruleID: "AC-KNOWN-FAILING", message: message)])))
        return reported
    }
}
