import PowerSyncWire

/// A PowerSync rule, written as a pure fold like the KizunaSync `TraceRule`s: it sees each
/// decoded event of one transcript or recording (stream openings, lines, ends, write
/// checkpoints, checkpoint requests) in order and appends findings, holding only the state it needs.
public protocol PowerSyncRule: Sendable {
    /// The rule ids this rule reports.
    static var ruleIDs: [RuleID] { get }
    /// Starts a fold.
    init()
    /// Folds one event in.
    /// - Parameters:
    ///   - event: the decoded event.
    ///   - location: where it is (a line's location carries its NDJSON line).
    ///   - findings: where violations go; a line's finding points into the line.
    mutating func observe(_ event: PowerSyncExchange, at location: StepLocation, into findings: inout [Finding])
}
