import Checks

/// What the page says about a rule id: its statement and source from the catalog
/// (`RuleCatalog.entry(_:)`: rule folds, runner checks and client obligations), when listed.
enum RuleText {
    /// The one-line statement of a rule, runner check or client obligation.
    /// - Parameter id: the id, e.g. "I-5", "AC-GOLDEN" or "CL-REQUEST".
    /// - Returns: the statement, or nil for an id the catalog does not name.
    static func statement(of id: RuleID) -> String? { RuleCatalog.entry(id.rawValue)?.statement }

    /// The source a rule comes from (upstream invariant, seed, decision), when listed.
    /// - Returns: the source.
    static func source(of id: RuleID) -> String? { RuleCatalog.entry(id.rawValue)?.source }
}
