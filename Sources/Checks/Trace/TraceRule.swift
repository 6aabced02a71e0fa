import Corpus

/// A rule over a trace, written as a pure fold: it sees each decoded exchange (and each set of
/// client-state checks) of one client's session in order and appends findings. Rules hold only
/// the little state they need, so a recording of any length is checked in bounded memory.
public protocol TraceRule: Sendable {
    /// The rule ids this rule reports.
    static var ruleIDs: [RuleID] { get }
    /// Starts a fold for one client session.
    /// - Parameter settings: the trace's settings.
    init(settings: TraceSettings)
    /// Folds one exchange in.
    /// - Parameters:
    ///   - exchange: the decoded exchange.
    ///   - location: where it is.
    ///   - findings: where violations go.
    mutating func observe(_ exchange: DecodedExchange, at location: StepLocation, into findings: inout [Finding])
    /// Folds one set of client-state checks in.
    /// - Parameters:
    ///   - checks: the checks.
    ///   - location: where they are.
    ///   - findings: where violations go.
    mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding])
}

extension TraceRule {
    /// Ignores checks; most rules read exchanges only.
    /// - Parameters:
    ///   - checks: the checks.
    ///   - location: where they are.
    ///   - findings: where violations go.
    public mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding]) {}
}
