import Checks
import Reports

extension Failure {
    /// A finding of a client or kill-matrix obligation.
    /// - Parameters:
    ///   - obligation: the obligation it breaks.
    ///   - message: one line, the id in it.
    ///   - body: expected vs actual, when there is one.
    init(_ obligation: ObligationID, message: String, body: String = "") {
        self.init(ruleID: RuleID(obligation.rawValue), message: message, body: body)
    }
}
