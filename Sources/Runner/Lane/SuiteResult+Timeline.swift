import Reports

extension SuiteResult {
    /// The suite with its sequence picture, and each case that reports on a step or exchange
    /// (named "step 7 push", "exchange 12 pull (client …0001)") tied to that number, so the
    /// HTML report colours the failing step. A case whose lane already set `step` keeps it.
    /// - Parameter timeline: the case's timeline.
    /// - Returns: the suite.
    func drawing(_ timeline: SequenceTimeline) -> SuiteResult {
        var suite = self
        suite.timeline = timeline
        for index in suite.cases.indices where suite.cases[index].step == nil {
            suite.cases[index].step = Self.stepNumber(in: suite.cases[index].name)
        }
        return suite
    }

    /// The step or exchange number a case name gives: the digits after the first "step " or
    /// "exchange " in it.
    /// - Parameter name: the case name.
    /// - Returns: the number, or nil when the name names none.
    static func stepNumber(in name: String) -> Int? {
        for word in ["step ", "exchange "] {
            guard let range = name.range(of: word) else { continue }
            let digits = name[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if let number = Int(digits) { return number }
        }
        return nil
    }
}
