import Checks

/// One rule failure as reports show it.
public struct Failure: Sendable, Hashable {
    /// The rule id, e.g. "I-5"; JUnit's failure type.
    public var ruleID: RuleID
    /// One line, naming the step, e.g. "step 7 push: I-5 verdict 1 answers …".
    public var message: String
    /// Expected versus actual, as canonical JSON text; may be empty.
    public var body: String

    /// Makes a failure.
    /// - Parameters:
    ///   - ruleID: the rule id.
    ///   - message: the one-line message.
    ///   - body: expected versus actual.
    public init(ruleID: RuleID, message: String, body: String = "") {
        self.ruleID = ruleID
        self.message = message
        self.body = body
    }
}
