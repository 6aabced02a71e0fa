import Checks

/// The one failure a failed test case reports, root cause first: when a step has both protocol
/// rule findings and a comparison with its reference (AC-GOLDEN, AC-BINDING, AC-DIFF), the first
/// rule finding is the failure (its id the JUnit `type`, its message the `message`), and the body
/// lists every finding, rule findings first, each with its expected and actual values, then the
/// comparisons, whose first difference carries the values and where it is.
public struct CaseFailure: Sendable, Hashable {
    /// The rule ids that compare a live answer with a reference rather than state a protocol rule.
    public static let comparisonRuleIDs: Set<RuleID> = ["AC-GOLDEN", "AC-BINDING", "AC-DIFF"]

    /// The rule the failure is reported under: the root cause; nil for a case that failed
    /// without a recorded finding.
    public var ruleID: RuleID?
    /// The root cause's one-line message.
    public var message: String
    /// Every finding, root cause first: each message, then its expected/actual lines indented.
    public var body: String
    /// The findings, root cause first.
    public var failures: [Failure]

    /// The message of a failed case that carries no `Failure`.
    public static let unexplained = "failed without a recorded finding"

    /// Folds a failed case's findings into one failure.
    /// - Parameter failures: the findings, in the order the lane found them; may be empty.
    public init(_ failures: [Failure]) {
        let ordered = Self.rootCauseFirst(failures)
        self.failures = ordered
        guard let first = ordered.first else {
            ruleID = nil
            message = Self.unexplained
            body = ""
            return
        }
        ruleID = first.ruleID
        message = first.message
        if ordered.count == 1 {
            body = first.body
        } else {
            body = ordered.map { failure in
                var lines = ["\(failure.ruleID): \(failure.message)"]
                if !failure.body.isEmpty {
                    lines += failure.body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
                }
                return lines.joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }

    /// The findings with protocol rules before comparisons, each group in its own order.
    /// - Returns: the same findings, root cause first.
    public static func rootCauseFirst(_ failures: [Failure]) -> [Failure] {
        failures.filter { !comparisonRuleIDs.contains($0.ruleID) } + failures.filter { comparisonRuleIDs.contains($0.ruleID) }
    }

    /// How many findings follow the root cause.
    public var others: Int { max(0, failures.count - 1) }
}

extension CaseResult {
    /// The case's one failure, root cause first; nil unless it failed.
    public var failure: CaseFailure? {
        guard case .failed(let failures) = outcome else { return nil }
        return CaseFailure(failures)
    }
}
