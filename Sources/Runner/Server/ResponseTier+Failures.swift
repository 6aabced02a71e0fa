import KizunaWire
import Reports

extension ResponseTier {
    /// The AC-GOLDEN failures of a live response compared with its reference (a golden or a
    /// recorded response): one when it diverges, one when it reaches only the semantic tier
    /// while `required` is byte equality.
    /// - Parameters:
    ///   - live: the live response body.
    ///   - reference: the golden or recorded response body.
    ///   - tier: the tier `compare` gave.
    ///   - pointer: where `compare` found the divergence.
    ///   - required: the tier a step must reach.
    ///   - label: the step's label, e.g. "step 7 push" or "exchange 4 push".
    ///   - noun: "golden" or "recorded".
    /// - Returns: the failures, empty when the response is good enough.
    static func failures(
        live: JSONValue, reference: JSONValue, tier: ResponseTier, pointer: JSONPointer?, required: ResponseTier, label: String,
        noun: String
    ) -> [Failure] {
        func body(at: JSONPointer) -> String {
            "expected: " + CanonicalJSON.compact(reference.value(at: at) ?? .null) + "\nactual: "
                + CanonicalJSON.compact(live.value(at: at) ?? .null)
        }
        func show(_ at: JSONPointer) -> String { at.tokens.isEmpty ? "/" : at.description }
        switch tier {
        case .diverged:
            let at = pointer ?? .root
            return [
                Failure(
                    ruleID: "AC-GOLDEN", message: "\(label): AC-GOLDEN the live response diverges from the \(noun) one at \(show(at))",
                    body: body(at: at))
            ]
        case .semantic where required == .pass:
            let at = firstDifference(live, reference, at: .root) ?? .root
            return [
                Failure(
                    ruleID: "AC-GOLDEN",
                    message:
                        "\(label): AC-GOLDEN the live response equals the \(noun) one only with server-made values masked (tier semantic), first at \(show(at)); run with --tier semantic to accept that",
                    body: body(at: at))
            ]
        default:
            return []
        }
    }
}
