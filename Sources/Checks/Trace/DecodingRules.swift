import Corpus
import JSON
import KizunaWire

/// The rules that decoding enforces: shape (I-2) and the closed sets.
public enum DecodingRules {
    /// The rule a decoding failure breaks.
    /// - Parameter kind: the wire error kind.
    /// - Returns: the rule id.
    public static func ruleID(for kind: WireError.Kind) -> RuleID {
        switch kind {
        case .unknownOp: "AC-OP"
        case .unknownVerdictReason: "AC-REASON"
        case .unknownSignal: "AC-SIGNAL"
        case .unknownVerdictKind: "AC-VERDICT-KIND"
        default: "I-2"
        }
    }

    /// The finding for a decoding failure.
    /// - Parameters:
    ///   - error: the failure.
    ///   - side: "request" or "response".
    ///   - location: where it is.
    /// - Returns: the finding.
    public static func finding(for error: WireError, side: String, at location: StepLocation) -> Finding {
        Finding(ruleID(for: error.kind), at: location, pointer: error.pointer, "\(side) \(error.protocolCode): \(error.detail)")
    }
}
