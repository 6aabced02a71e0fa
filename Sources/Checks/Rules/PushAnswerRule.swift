import JSON
import KizunaWire

/// I-5 (the verdict bijection), AC-ABORT-ATOMIC (an abort answers only an atomic batch),
/// AC-OFFENDER (the offender is a batch member) and the push half of AC-SIGNAL (a push signal is
/// RESET_REQUIRED). The abort and signal arms are exempt from the bijection.
public struct PushAnswerRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rules reported.
    public static let ruleIDs: [RuleID] = ["I-5", "AC-ABORT-ATOMIC", "AC-OFFENDER", "AC-SIGNAL"]

    /// Starts a fold.
    public init(settings: TraceSettings) {}

    /// Checks a push response against its request; client-state checks say nothing to it.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        guard case .exchange(let exchange) = observation else { return }
        guard case .push(let request, let response) = exchange else { return }
        for violation in response.violations(answering: request) {
            let rule: RuleID =
                switch violation.kind {
                case .verdictBijection: "I-5"
                case .unknownBatchOffender: "AC-OFFENDER"
                case .unknownSignal: "AC-SIGNAL"
                default: "AC-ABORT-ATOMIC"
                }
            let side = violation.pointer.tokens.first == "batch" && violation.kind == .verdictBijection ? "request" : "response"
            findings.append(
                Finding(
                    rule, at: location, pointer: JSONPointer(tokens: [side]).appending(violation.pointer), violation.detail,
                    expected: violation.expected, actual: violation.actual))
        }
    }
}
