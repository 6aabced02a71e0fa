import JSON

/// One rule violation found in a trace: a value, never a thrown error.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The rule broken.
    public var ruleID: RuleID
    /// The step or exchange; nil for a file-level finding.
    public var location: StepLocation?
    /// The offending value, relative to the step (e.g. /response/verdicts/1).
    public var pointer: JSONPointer
    /// What is wrong, in one line.
    public var message: String
    /// What the rule expected, when there is a single expected value.
    public var expected: JSONValue?
    /// What the trace holds there.
    public var actual: JSONValue?

    /// Makes a finding.
    public init(
        _ ruleID: RuleID, at location: StepLocation?, pointer: JSONPointer, _ message: String, expected: JSONValue? = nil,
        actual: JSONValue? = nil
    ) {
        self.ruleID = ruleID
        self.location = location
        self.pointer = pointer
        self.message = message
        self.expected = expected
        self.actual = actual
    }

    /// "step 7 push: I-5 verdict 1 answers …, expected … (at /response/verdicts/1/mutation_id)".
    public var description: String {
        let at = pointer.tokens.isEmpty ? "" : " (at \(pointer.readable))"
        return "\(location?.description ?? "file"): \(ruleID) \(message)\(at)"
    }
}
