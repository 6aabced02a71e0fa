/// How one reported test case ended.
public enum CaseOutcome: Sendable, Hashable {
    /// Every rule that examined it held.
    case passed
    /// At least one rule failed.
    case failed([Failure])
    /// Not checked, with the reason (e.g. a blocked manifest entry, or a check the lane cannot run).
    case skipped(String)
    /// The check itself could not run (e.g. a transport error talking to a target).
    case errored(String)
}
