import Testing

@testable import Reports

/// One failure per testcase, root cause first (issue 22, item 2).
@Suite("Case failure: root cause first")
struct CaseFailureTests {
    static let golden = Failure(
        ruleID: "AC-GOLDEN",
        message:
            "step 7 push: AC-GOLDEN the live response diverges from the golden one at /verdicts/0/mutation_id (golden \"m1\", live \"m2\")",
        body: "at: /verdicts/0/mutation_id in the verdict for mutation m1\nexpected: \"m1\"\nactual: \"m2\"")
    static let bijection = Failure(
        ruleID: "I-5", message: "step 7 push: I-5 verdict 0 answers m2, expected m1 (request order)",
        body: "actual: \"m2\"")
    static let second = Failure(ruleID: "I-5", message: "step 7 push: I-5 verdict 1 answers m1, expected m2 (request order)")

    @Test("a protocol rule found after a golden divergence is the failure; the body lists it, then the divergence with its values")
    func ruleBeforeDivergence() {
        let failure = CaseFailure([Self.golden, Self.bijection, Self.second])
        #expect(failure.ruleID == "I-5")
        #expect(failure.message == Self.bijection.message)
        #expect(failure.failures.map(\.ruleID) == ["I-5", "I-5", "AC-GOLDEN"])
        let lines = failure.body.split(separator: "\n").map(String.init)
        #expect(lines.first == "I-5: \(Self.bijection.message)")
        #expect(lines[1] == "  actual: \"m2\"")
        #expect(lines[2] == "I-5: \(Self.second.message)")
        #expect(lines[3] == "AC-GOLDEN: \(Self.golden.message)")
        #expect(
            lines.suffix(3) == ["  at: /verdicts/0/mutation_id in the verdict for mutation m1", "  expected: \"m1\"", "  actual: \"m2\""])
        #expect(failure.others == 2)
    }

    @Test("comparisons alone keep their order, and a lone finding keeps its own body")
    func comparisonsOnly() {
        let binding = Failure(ruleID: "AC-BINDING", message: "step 3 pull: AC-BINDING cursor", body: "golden: 4\nlive: 5")
        let both = CaseFailure([binding, Self.golden])
        #expect(both.ruleID == "AC-BINDING")
        #expect(both.failures.map(\.ruleID) == ["AC-BINDING", "AC-GOLDEN"])
        let lone = CaseFailure([Self.golden])
        #expect(lone.ruleID == "AC-GOLDEN")
        #expect(lone.body == Self.golden.body)
        #expect(lone.others == 0)
    }

    @Test("a failed case without findings is unexplained, not typed")
    func unexplained() {
        let failure = CaseFailure([])
        #expect(failure.ruleID == nil)
        #expect(failure.message == CaseFailure.unexplained)
        #expect(CaseResult(name: "n", classname: "c", outcome: .passed).failure == nil)
    }

    @Test("JUnit writes one <failure> typed by the root cause, and the console line names it and the rest")
    func writersAgree() throws {
        let suite = SuiteResult(
            name: "push/003-replay-returns-recorded-verdicts",
            cases: [CaseResult(name: "step 7 push", classname: "kizuna.server.push.003", outcome: .failed([Self.golden, Self.bijection]))])
        let sink = BufferSink()
        let writer = try JUnitWriter(sink: sink, name: "accord")
        try writer.write(suite)
        try writer.finish()
        #expect(sink.text.components(separatedBy: "<failure ").count == 2)
        #expect(sink.text.contains(#"<failure type="I-5" message="step 7 push: I-5 verdict 0 answers m2, expected m1 (request order)">"#))
        var summary = ConsoleSummary()
        summary.add(suite)
        let first = summary.render(color: false).split(separator: "\n").first.map(String.init)
        #expect(
            first
                == "FAIL push/003-replay-returns-recorded-verdicts › step 7 push: I-5 verdict 0 answers m2, expected m1 (request order) (+1 more: AC-GOLDEN)"
        )
    }
}
