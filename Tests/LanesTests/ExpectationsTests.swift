import Corpus
import Harness
import Lanes
import Reports
import Testing

/// `--expect FILE`: every case's outcome pinned; a difference either way fails the run.
@Suite("expectations file")
struct ExpectationsTests {
    static let text = """
        # case                outcome         reason
        a/001-pass            pass
        a/002-bound           bound           seqs stamped by the server's own sequence
        a/003-na              not-applicable  held transactions leave no hole
        a/004-failing         known-failing   the cursor it returned expires at the next pull
        a/005-skipped         skipped

        """

    static func suite(_ name: String, _ outcomes: [CaseOutcome], tier: String = "pass") -> SuiteResult {
        SuiteResult(
            name: name, properties: [SuiteResult.Property(name: "tier", value: tier)],
            cases: outcomes.enumerated().map { CaseResult(name: "step \($0.offset + 1) pull", classname: "kizuna.a", outcome: $0.element) })
    }

    static func added(_ suite: SuiteResult) -> [String] {
        suite.cases.filter { $0.name == "expectation" || $0.name == "known-failing entry" }.compactMap { result in
            if case .failed(let failures) = result.outcome { return failures.first?.message }
            return nil
        }
    }

    @Test("a file that holds every case reads, with reasons")
    func reads() throws {
        let expectations = try Expectations(text: Self.text, file: "pack.expect")
        #expect(expectations.entries.count == 5)
        #expect(expectations.entries["a/004-failing"]?.reason == "the cursor it returned expires at the next pull")
        #expect(expectations.entries["a/001-pass"]?.reason == nil)
    }

    @Test("bad lines name the file and line: an unknown outcome, a known-failing case with no reason, a case twice")
    func refusesBadLines() {
        for text in ["a/001 passes\n", "\n\na/001 known-failing\n", "a/001 pass\na/001 bound\n", "a/001\n"] {
            #expect(throws: CorpusError.self) { _ = try Expectations(text: text, file: "e.txt") }
        }
        do {
            _ = try Expectations(text: "\n\na/001 known-failing\n", file: "e.txt")
        } catch {
            #expect("\(error)".contains("e.txt"), "\(error)")
            #expect("\(error)".contains("e.txt:3"), "\(error)")
        }
    }

    @Test("cases that end as expected are left alone; an expected failure is reported skipped with its reason")
    func matches() throws {
        let expectations = try Expectations(text: Self.text, file: "pack.expect")
        let passing = Self.suite("a/001-pass", [.passed])
        #expect(expectations.apply(to: passing) == passing)
        #expect(Self.added(expectations.apply(to: Self.suite("a/002-bound", [.passed], tier: "bound"))).isEmpty)
        #expect(Self.added(expectations.apply(to: Self.suite("a/003-na", [.skipped("not applicable: no hole")], tier: "none"))).isEmpty)
        #expect(Self.added(expectations.apply(to: Self.suite("a/005-skipped", [.skipped("client step")], tier: "none"))).isEmpty)
        let failed = expectations.apply(to: Self.suite("a/004-failing", [.passed, .failed([Failure(ruleID: "AC-GOLDEN", message: "m")])]))
        #expect(failed.tally.failures == 0)
        #expect(failed.cases.last?.outcome == .skipped("known failing: the cursor it returned expires at the next pull; m"))
    }

    @Test("any other outcome fails, an unexpected pass included, and so does a case the file does not list")
    func differences() throws {
        let expectations = try Expectations(text: Self.text, file: "pack.expect")
        let fixed = expectations.apply(to: Self.suite("a/004-failing", [.passed]))
        #expect(Self.added(fixed) == ["a/004-failing is listed as known failing but ended pass: remove the stale entry"])
        let worse = expectations.apply(to: Self.suite("a/002-bound", [.failed([Failure(ruleID: "I-3", message: "m")])]))
        #expect(Self.added(worse).first?.contains("expected to end bound but ended known-failing") == true)
        let better = expectations.apply(to: Self.suite("a/002-bound", [.passed], tier: "pass"))
        #expect(Self.added(better).first?.contains("expected to end bound but ended pass") == true)
        let stopped = expectations.apply(
            to: Self.suite("a/001-pass", [.passed, .skipped("unsupported: held transactions"), .skipped("not run: unsupported")]))
        #expect(Self.added(stopped).first?.contains("expected to end pass but ended not-applicable") == true, "\(Self.added(stopped))")
        let nothingCompared = expectations.apply(to: Self.suite("a/001-pass", [.passed], tier: "none"))
        #expect(Self.added(nothingCompared).first?.contains("ended skipped") == true, "a server step that applied is no comparison")
        let unlisted = expectations.apply(to: Self.suite("a/999-new", [.passed]))
        #expect(Self.added(unlisted).first?.contains("is not in pack.expect") == true)
        #expect(expectations.unknownEntries(among: ["a/001-pass"])?.tally.failures == 1)
    }
}
