import Reports
import Testing

@Suite("Console summary")
struct ConsoleSummaryTests {
    private static func failing(_ name: String, count: Int) -> SuiteResult {
        SuiteResult(
            name: name,
            cases: (0..<count).map {
                CaseResult(
                    name: "step \($0)", classname: "kizuna.push",
                    outcome: .failed([Failure(ruleID: "I-5", message: "step \($0) push: I-5 verdict \($0) missing")]))
            })
    }

    @Test("a clean run renders only the verdict")
    func cleanRun() {
        var summary = ConsoleSummary()
        summary.add(
            SuiteResult(
                name: "a",
                cases: [
                    CaseResult(name: "1", classname: "kizuna.x", outcome: .passed),
                    CaseResult(name: "2", classname: "kizuna.x", outcome: .skipped("known failing")),
                ]))
        summary.add(SuiteResult(name: "b", cases: [CaseResult(name: "1", classname: "kizuna.x", outcome: .passed)]))
        #expect(
            summary.render(color: false)
                == "accord: 2 cases (2 passed, 0 failed, 0 skipped), 3 steps: 2 passed, 0 failed, 1 skipped, 0 errors")
        #expect(summary.isPassing)
        #expect(summary.suites == 2)
        #expect(summary.tally.tests == 3)
    }

    @Test("a suite whose every case is skipped counts as a skipped suite")
    func skippedSuite() {
        var summary = ConsoleSummary()
        summary.add(
            SuiteResult(
                name: "wakeup/002", cases: [CaseResult(name: "blocked", classname: "kizuna.wakeup", outcome: .skipped("blocked on D-x"))]))
        summary.add(SuiteResult(name: "push/001", cases: [CaseResult(name: "step 1 push", classname: "kizuna.push", outcome: .passed)]))
        #expect(
            summary.render(color: false)
                == "SKIP wakeup/002: blocked on D-x\naccord: 2 cases (1 passed, 0 failed, 1 skipped), 2 steps: 1 passed, 0 failed, 1 skipped, 0 errors",
            "a skipped case is named with its first reason")
        #expect(summary.skippedSuites == 1 && summary.passedSuites == 1)
    }

    @Test("skipped cases are named, the first few, then counted")
    func skippedNamed() {
        var summary = ConsoleSummary()
        for index in 0..<7 {
            summary.add(
                SuiteResult(
                    name: "c\(index)",
                    cases: [CaseResult(name: "setup", classname: "kizuna.x", outcome: .skipped("not applicable: why \(index)"))]))
        }
        #expect(
            summary.skippedLines(maxSuites: 2) == [
                "SKIP c0: not applicable: why 0", "SKIP c1: not applicable: why 1", "… and 5 more skipped cases",
            ])
    }

    @Test("singular counts read naturally")
    func singular() {
        var summary = ConsoleSummary()
        summary.add(SuiteResult(name: "a", cases: [CaseResult(name: "1", classname: "kizuna.x", outcome: .errored("boom"))]))
        #expect(
            summary.render(color: false)
                == "ERROR a › 1: boom\naccord: 1 case (0 passed, 1 failed, 0 skipped), 1 step: 0 passed, 0 failed, 0 skipped, 1 error")
        #expect(!summary.isPassing)
    }

    @Test("failures are listed before the verdict, one line per rule failure")
    func failuresFirst() {
        var summary = ConsoleSummary()
        summary.add(Self.failing("push/002-rls-denied-not-a-wedge", count: 2))
        summary.add(
            SuiteResult(
                name: "pull/001",
                cases: [
                    CaseResult(name: "step 3 pull", classname: "kizuna.pull", outcome: .failed([])),
                    CaseResult(name: "step 4 pull", classname: "kizuna.pull", outcome: .errored("connection reset")),
                ]))
        let lines = summary.render(color: false).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "FAIL push/002-rls-denied-not-a-wedge › step 0 push: I-5 verdict 0 missing",
                "FAIL push/002-rls-denied-not-a-wedge › step 1 push: I-5 verdict 1 missing",
                "FAIL pull/001 › step 3 pull",
                "ERROR pull/001 › step 4 pull: connection reset",
                "accord: 2 cases (0 passed, 2 failed, 0 skipped), 4 steps: 0 passed, 3 failed, 0 skipped, 1 error",
            ])
    }

    @Test("only the first failures are kept; the rest are counted")
    func bounded() {
        var summary = ConsoleSummary(failureLimit: 3)
        summary.add(Self.failing("s", count: 10))
        let lines = summary.render(color: false, maxFailures: 50).split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[2] == "FAIL s › step 2 push: I-5 verdict 2 missing")
        #expect(lines[3] == "… and 7 more failures")
        #expect(lines[4] == "accord: 1 case (0 passed, 1 failed, 0 skipped), 10 steps: 0 passed, 10 failed, 0 skipped, 0 errors")

        let fewer = summary.render(color: false, maxFailures: 1).split(separator: "\n").map(String.init)
        #expect(
            fewer == [
                "FAIL s › step 0 push: I-5 verdict 0 missing",
                "… and 9 more failures",
                "accord: 1 case (0 passed, 1 failed, 0 skipped), 10 steps: 0 passed, 10 failed, 0 skipped, 0 errors",
            ])
    }

    @Test("colour wraps labels and the verdict in ANSI codes; plain output has none")
    func color() {
        var summary = ConsoleSummary()
        summary.add(Self.failing("s", count: 1))
        let colored = summary.render(color: true)
        #expect(colored.contains("\u{1B}[1;31mFAIL\u{1B}[0m s › step 0"))
        #expect(colored.hasSuffix("\u{1B}[0m"))
        #expect(!summary.render(color: false).contains("\u{1B}"))

        var clean = ConsoleSummary()
        clean.add(SuiteResult(name: "ok"))
        #expect(clean.verdict(color: true).hasPrefix("\u{1B}[1;32maccord: 1 case"))
    }

    @Test("control characters from targets cannot break lines or drive the terminal")
    func controlCharacters() {
        var summary = ConsoleSummary()
        summary.add(
            SuiteResult(
                name: "s",
                cases: [
                    CaseResult(name: "c", classname: "kizuna.x", outcome: .errored("evil\n\u{1B}[2J\u{9B}done"))
                ]))
        let lines = summary.render(color: false).split(separator: "\n").map(String.init)
        #expect(lines.first == #"ERROR s › c: evil\u000A\u001B[2J\u009Bdone"#)
        #expect(lines.count == 2)
    }
}
