/// Counts of outcomes.
public struct Tally: Sendable, Hashable {
    /// All cases.
    public var tests = 0
    /// Passed cases.
    public var passed = 0
    /// Failed cases.
    public var failures = 0
    /// Skipped cases.
    public var skipped = 0
    /// Errored cases.
    public var errors = 0

    /// An empty tally.
    public init() {}

    /// Counts one outcome.
    public mutating func add(_ outcome: CaseOutcome) {
        tests += 1
        switch outcome {
        case .passed: passed += 1
        case .failed: failures += 1
        case .skipped: skipped += 1
        case .errored: errors += 1
        }
    }

    /// Adds another tally.
    /// - Parameter other: the tally to add.
    public mutating func add(_ other: Tally) {
        tests += other.tests
        passed += other.passed
        failures += other.failures
        skipped += other.skipped
        errors += other.errors
    }
}
