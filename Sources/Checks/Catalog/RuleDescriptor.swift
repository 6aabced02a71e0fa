import Corpus

/// How a rule is evaluated.
public enum RuleEvaluation: String, Sendable, Hashable {
    /// Over a file's bytes (I-1).
    case bytes
    /// By strict decoding of each exchange (I-2 and the closed sets).
    case decoding
    /// By a fold over the exchanges of a client session.
    case trace
}

/// One rule of the catalog: its stable id, a one-line statement, where it comes from, and a
/// pair of fixtures: one trace that passes and one that violates it.
public struct RuleDescriptor: Sendable, Hashable {
    /// The stable id, e.g. "I-5".
    public var id: RuleID
    /// A short title.
    public var title: String
    /// The rule in one line.
    public var statement: String
    /// Its authority: the upstream invariant, seed or decision.
    public var source: String
    /// How it is evaluated.
    public var evaluation: RuleEvaluation
    /// A fixture that passes every rule: transcript steps as JSON (for `.bytes`, a whole file).
    public var passing: String
    /// A fixture that violates this rule and no other.
    public var violating: String
    /// The step `n` at which the violating fixture fails (nil: file level).
    public var violatingStep: Int?
    /// The protocol profile whose traces the rule judges.
    public var profile: CorpusProfile
    /// The 1-based NDJSON line of the violating step's stream where it fails (PowerSync rules on a stream line).
    public var violatingLine: Int?

    /// Makes a descriptor.
    /// - Parameters:
    ///   - id: the id.
    ///   - title: the title.
    ///   - statement: the one-line rule.
    ///   - source: the authority.
    ///   - evaluation: how it is evaluated.
    ///   - passing: the passing fixture.
    ///   - violating: the violating fixture.
    ///   - violatingStep: where the violating fixture fails.
    ///   - profile: the protocol profile.
    ///   - violatingLine: the NDJSON line where it fails.
    public init(
        id: RuleID, title: String, statement: String, source: String, evaluation: RuleEvaluation, passing: String, violating: String,
        violatingStep: Int?, profile: CorpusProfile = .kizunaSync, violatingLine: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.statement = statement
        self.source = source
        self.evaluation = evaluation
        self.passing = passing
        self.violating = violating
        self.violatingStep = violatingStep
        self.profile = profile
        self.violatingLine = violatingLine
    }

    /// Where the violating fixture fails: "step 3", "step 1, NDJSON line 4" or "file level".
    public var failsAt: String {
        guard let step = violatingStep else { return "fails at file level" }
        return "fails at step \(step)" + (violatingLine.map { ", NDJSON line \($0)" } ?? "")
    }
}
