import Reports

extension KnownFailing {
    /// A failing suite for entries that name no case of the inputs (a typo or a removed case);
    /// nil when every entry names one.
    /// - Parameter caseIDs: every case id the inputs hold.
    /// - Returns: the suite, or nil.
    public func unknownEntries(among caseIDs: Set<String>) -> SuiteResult? {
        let unknown = caseIDs.isEmpty ? [] : self.caseIDs.subtracting(caseIDs).sorted()
        guard !unknown.isEmpty else { return nil }
        let failures = unknown.map {
            Failure(ruleID: "AC-KNOWN-FAILING", message: "known-failing entry \($0) names no case of the inputs: fix or remove it")
        }
        return SuiteResult(
            name: "known-failing list", cases: [CaseResult(name: "entries", classname: "kizuna.known-failing", outcome: .failed(failures))])
    }

    /// The suite as reported under this list: a listed case that failed becomes skipped; a
    /// listed case that passed gains a failing "known-failing entry" case (the entry is stale).
    /// - Parameter suite: the suite as run.
    /// - Returns: the suite to report.
    public func apply(to suite: SuiteResult) -> SuiteResult {
        guard caseIDs.contains(suite.name) else { return suite }
        var reported = suite
        let tally = suite.tally
        let classname = suite.cases.first?.classname ?? "kizuna.case"
        if tally.failures + tally.errors > 0 {
            reported.cases = suite.cases.map { result in
                var copy = result
                switch result.outcome {
                case .failed(let failures):
                    copy.outcome = .skipped("known failing: " + (failures.first?.message ?? "failed"))
                case .errored(let reason):
                    copy.outcome = .skipped("known failing: " + reason)
                default: break
                }
                return copy
            }
        } else {
            reported.cases.append(
                CaseResult(
                    name: "known-failing entry", classname: classname,
                    outcome: .failed([
                        Failure(
                            ruleID: "AC-KNOWN-FAILING",
                            message: "\(suite.name) is listed as known failing but passed: remove the stale entry")
                    ])))
        }
        return reported
    }
}
