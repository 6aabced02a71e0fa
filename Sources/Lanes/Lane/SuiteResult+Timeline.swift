import Corpus
import Reports

extension SuiteResult {
    /// The suite with its sequence picture, and each case that reports on a step or exchange
    /// (named "step 7 push", "exchange 12 pull (client …0001)") tied to that number, so the
    /// HTML report colours the failing step. A case whose lane already set `step` keeps it.
    /// - Returns: the suite.
    func drawing(_ timeline: SequenceTimeline) -> SuiteResult {
        var suite = self
        suite.timeline = timeline
        for index in suite.cases.indices where suite.cases[index].step == nil {
            suite.cases[index].step = Self.stepNumber(in: suite.cases[index].name)
        }
        return suite
    }

    /// The suite with the sequence picture of its transcript, drawing at each step what its
    /// cases observed the system under test send or answer (`CaseResult.observed`), which is then
    /// cleared: the picture holds it, and passes the run's redactor with the suite.
    /// - Returns: the suite.
    func drawing(transcript: Transcript) -> SuiteResult {
        drawing { SequenceTimeline(transcript: transcript, observed: $0) }
    }

    /// The suite with the picture `timeline` draws from its cases' observations, by step; each
    /// observation is cleared once drawn.
    func drawing(_ timeline: ([Int: CaseResult.Observed]) -> SequenceTimeline) -> SuiteResult {
        var observed: [Int: CaseResult.Observed] = [:]
        for result in cases {
            guard let seen = result.observed, let step = result.step ?? Self.stepNumber(in: result.name) else { continue }
            if observed[step] == nil { observed[step] = seen }
        }
        var suite = drawing(timeline(observed))
        for index in suite.cases.indices { suite.cases[index].observed = nil }
        return suite
    }

    /// The step or exchange number a case name gives: the digits after the first "step " or
    /// "exchange " in it.
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
