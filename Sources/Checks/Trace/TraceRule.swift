import Corpus

/// A KizunaSync rule: a `Rule` over `KizunaSyncTrace`, which sees each decoded exchange (and each
/// set of client-state checks) of one client's session in order.
public protocol TraceRule: Rule where Profile == KizunaSyncTrace {
    /// Folds one exchange in; violations go to `findings`.
    mutating func observe(_ exchange: DecodedExchange, at location: StepLocation, into findings: inout [Finding])
    /// Folds one set of client-state checks in; violations go to `findings`.
    mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding])
}

extension TraceRule {
    /// Hands an observation to the exchange or the checks fold.
    public mutating func observe(_ observation: KizunaSyncTrace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch observation {
        case .exchange(let exchange): observe(exchange, at: location, into: &findings)
        case .checks(let checks): observe(checks: checks, at: location, into: &findings)
        }
    }

    /// Ignores checks; most rules read exchanges only.
    /// - Parameters:
    ///   - checks: the checks.
    ///   - location: where they are.
    ///   - findings: where violations go.
    public mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding]) {}
}
