/// A target that can check, before the first case, that it can be tested at all (it answers, its
/// fixture endpoint is on, it takes the runner's credentials), so that a setup mistake reads as
/// one line with its fix rather than as a failure of every case. The server lane runs it once,
/// for the KizunaSync target and for the PowerSync one when it has cases for them.
public protocol TargetPreflight: Sendable {
    /// Checks the target's setup.
    /// - Throws: `SetupProblem` saying what is wrong and how to fix it.
    func preflight() async throws(SetupProblem)
}

/// What is wrong with a target's setup, and how to fix it (the runner reports it as a setup
/// error, exit 78, not as a failed case).
public struct SetupProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one line.
    public let problem: String
    /// How to fix it.
    public let fix: String

    /// Makes a setup problem.
    public init(_ problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    /// The problem and its fix.
    public var description: String { "\(problem) (fix: \(fix))" }
}
