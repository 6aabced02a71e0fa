import Checks

/// What the page says about a rule id: its statement from the rule catalog or the client
/// obligations, when the id is listed there.
enum RuleText {
    /// The one-line statement of a rule or client obligation.
    /// - Parameter id: the id, e.g. "I-5" or "CL-REQUEST".
    /// - Returns: the statement, or nil for an id neither list names.
    static func statement(of id: String) -> String? {
        if let rule = RuleCatalog.rule(RuleID(id)) { return rule.statement }
        return ClientObligation.all.first { $0.id == id }?.statement
    }

    /// The source a rule comes from (upstream invariant, seed, decision), when listed.
    /// - Parameter id: the id.
    /// - Returns: the source.
    static func source(of id: String) -> String? {
        if let rule = RuleCatalog.rule(RuleID(id)) { return rule.source }
        return ClientObligation.all.first { $0.id == id }?.source
    }
}
