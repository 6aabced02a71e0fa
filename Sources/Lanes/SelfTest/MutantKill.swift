import Reports

/// Where a lane first caught a mutant (or an unmutated baseline failed).
public struct MutantKill: Sendable, Hashable {
    /// The failing rule id (or `ERROR` for a case that could not run).
    public var ruleID: String
    /// The case (suite) that failed, e.g. `push/001-insert-applied`.
    public var caseID: String
    /// The failing step (test case) inside it.
    public var step: String
    /// The lane that caught it: `server`, `client`, `kill-matrix` or `storage-faults`.
    public var lane: String

    /// The first failure among `suites`, if any.
    /// - Parameters:
    ///   - suites: the suites of one lane run, in order.
    ///   - lane: the lane's name.
    /// - Returns: the first failed or errored case, or nil when everything passed or was skipped.
    static func first(in suites: [SuiteResult], lane: String) -> MutantKill? {
        for suite in suites {
            for item in suite.cases {
                switch item.outcome {
                case .failed(let failures):
                    let ruleID = CaseFailure(failures).ruleID?.rawValue ?? "FAILED"
                    return MutantKill(ruleID: ruleID, caseID: suite.name, step: item.name, lane: lane)
                case .errored:
                    return MutantKill(ruleID: "ERROR", caseID: suite.name, step: item.name, lane: lane)
                case .passed, .skipped:
                    continue
                }
            }
        }
        return nil
    }
}
