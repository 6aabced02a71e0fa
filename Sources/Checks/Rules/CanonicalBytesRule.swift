import JSON

/// I-1: a corpus file's bytes are canonical JSON (C-1..C-7, C-9). A divergence inside a step is
/// reported at that step; one elsewhere is a file-level finding.
public enum CanonicalBytesRule {
    /// The rule reported.
    public static let ruleID: RuleID = "I-1"

    /// The I-1 findings of a file.
    /// - Parameters:
    ///   - raw: the file's bytes.
    ///   - json: the parsed file.
    ///   - locate: maps a step index (position in `steps`) to its location; nil when the file has no steps.
    /// - Returns: the findings.
    public static func findings(raw: [UInt8], json: JSONValue, locate: ((Int) -> StepLocation?)? = nil) -> [Finding] {
        CanonicalJSON.violations(raw: raw, value: json).map { violation in
            var location: StepLocation?
            var pointer = violation.pointer ?? .root
            if let locate, let tokens = violation.pointer?.tokens, tokens.count >= 2, tokens[0] == "steps", let index = Int(tokens[1]) {
                location = locate(index)
                pointer = JSONPointer(tokens: Array(tokens.dropFirst(2)))
            }
            return Finding(
                ruleID, at: location, pointer: pointer, "bytes are not canonical JSON (\(violation.clause)): \(violation.detail)")
        }
    }
}
