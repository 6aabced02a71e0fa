import Checks
import Corpus
import Foundation
import Harness
import Reports

/// The self-test's output: the Markdown table of killed and surviving mutants, the score line,
/// and the JUnit report with one suite per mutant.
public struct SelfTestReport: Sendable {
    /// The findings.
    public var outcome: SelfTest.Outcome

    /// Makes a report.
    public init(outcome: SelfTest.Outcome) {
        self.outcome = outcome
    }

    /// Mutants killed.
    public var killed: Int { outcome.results.filter(\.killed).count }

    /// True when the baselines passed and every mutant was killed.
    public var isPassing: Bool { outcome.baselineFailures.isEmpty && killed == outcome.results.count }

    /// The last line: `mutation score: K/N killed`, followed by the count per profile when the
    /// mutants span more than one (`(kizunasync K/N, powersync K/N)`).
    public var scoreLine: String {
        let line = "mutation score: \(killed)/\(outcome.results.count) killed"
        let profiles = [CorpusProfile.kizunaSync, .powerSync].filter { profile in outcome.results.contains { $0.mutant.profile == profile }
        }
        guard profiles.count > 1 else { return line }
        let parts = profiles.map { profile in
            let results = outcome.results.filter { $0.mutant.profile == profile }
            return "\(profile.rawValue) \(results.filter(\.killed).count)/\(results.count)"
        }
        return line + " (" + parts.joined(separator: ", ") + ")"
    }

    /// The Markdown table, the baseline and survivor notes, and the score as the last line.
    public var markdown: String {
        var lines = [
            "| mutant | component | rule it breaks | killed by rule | at case › step |", "|---|---|---|---|---|",
        ]
        for result in outcome.results {
            let mutant = result.mutant
            if let kill = result.kill {
                lines.append(
                    "| `\(mutant.name)` | \(mutant.component.rawValue) | \(cell(mutant.rule)) | \(kill.ruleID) | "
                        + "\(cell(kill.lane)): `\(cell(kill.caseID))` › \(cell(kill.step)) |")
            } else {
                lines.append("| `\(mutant.name)` | \(mutant.component.rawValue) | \(cell(mutant.rule)) | **SURVIVED** | — |")
            }
        }
        lines.append("")
        for failure in outcome.baselineFailures {
            let kill = failure.kill
            lines.append(
                "baseline FAILED: the unmutated \(failure.component.rawValue) fails \(kill.ruleID) at \(kill.caseID) › \(kill.step) (\(kill.lane) lane)"
            )
        }
        let survivors = outcome.results.filter { !$0.killed }.map(\.mutant.name)
        if !survivors.isEmpty { lines.append("survivors (gaps in Accord's rules): \(survivors.joined(separator: ", "))") }
        lines.append(scoreLine)
        return lines.joined(separator: "\n")
    }

    /// The suites of the JUnit report: the baselines, then one suite per mutant whose one test
    /// case passes when the mutant was killed.
    public var suites: [SuiteResult] {
        var suites: [SuiteResult] = []
        for component in Set(outcome.results.map(\.mutant.component)).sorted(by: { $0.rawValue < $1.rawValue }) {
            let failure = outcome.baselineFailures.first { $0.component == component }
            let outcome: CaseOutcome =
                failure.map {
                    .failed([
                        Failure(
                            ruleID: RuleID($0.kill.ruleID),
                            message: "the unmutated \(component.rawValue) fails at \($0.kill.caseID) › \($0.kill.step)")
                    ])
                } ?? .passed
            suites.append(
                SuiteResult(
                    name: "selftest/baseline-\(component.rawValue)",
                    cases: [CaseResult(name: "baseline passes", classname: "selftest.\(component.rawValue)", outcome: outcome)]))
        }
        for result in outcome.results {
            let mutant = result.mutant
            let outcome: CaseOutcome =
                result.kill.map { _ in .passed }
                ?? .failed([Failure(ruleID: "SELFTEST-SURVIVOR", message: "no rule caught \(mutant.name) (\(mutant.rule))")])
            var properties = [
                SuiteResult.Property(name: "component", value: mutant.component.rawValue),
                SuiteResult.Property(name: "rule", value: mutant.rule),
            ]
            if let kill = result.kill {
                properties += [
                    SuiteResult.Property(name: "killed_by", value: kill.ruleID),
                    SuiteResult.Property(name: SuiteResult.Property.laneName, value: kill.lane),
                    SuiteResult.Property(name: "case", value: kill.caseID), SuiteResult.Property(name: "step", value: kill.step),
                ]
            }
            suites.append(
                SuiteResult(
                    name: "selftest/\(mutant.name)", properties: properties,
                    cases: [
                        CaseResult(
                            name: "mutant is killed", classname: "selftest.\(mutant.component.rawValue).\(mutant.name)", outcome: outcome,
                            time: result.seconds)
                    ], time: result.seconds))
        }
        return suites
    }

    /// Writes the JUnit report.
    /// - Throws: `RunError.output` when it cannot be written.
    public func writeJUnit(to path: String) throws(RunError) {
        var reports = try ReportFanout(junitPath: path, jsonPath: nil, name: "accord selftest")
        for suite in suites { try reports.add(suite) }
        try reports.finish()
    }

    private func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
