/// One test case: a step, a postcondition, or a file-level check.
public struct CaseResult: Sendable, Hashable {
    /// The unique name within its suite, e.g. "step 07 push".
    public var name: String
    /// The JUnit classname, `kizuna.<area>`.
    public var classname: String
    /// How it ended.
    public var outcome: CaseOutcome
    /// Seconds spent.
    public var time: Double
    /// What the lane observed beyond the outcome (e.g. "tier bound"); JUnit `<system-out>`.
    public var note: String?
    /// The transcript step or recorded exchange number this case reports on, when it reports on
    /// one; the HTML report colours that step of the suite's sequence picture.
    public var step: Int?

    /// Makes a case result.
    /// - Parameters:
    ///   - name: the name.
    ///   - classname: the classname.
    ///   - outcome: the outcome.
    ///   - time: seconds spent.
    ///   - note: what the lane observed beyond the outcome.
    public init(name: String, classname: String, outcome: CaseOutcome, time: Double = 0, note: String? = nil) {
        self.name = name
        self.classname = classname
        self.outcome = outcome
        self.time = time
        self.note = note
    }
}
