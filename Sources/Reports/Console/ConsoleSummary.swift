/// The console's end-of-run text: the first failures, then a one-line verdict.
///
/// Only the first few failures are kept, so memory stays bounded however long the run;
/// the rest are counted. Failure lines look like
/// `FAIL push/002-rls-denied-not-a-wedge › step 7 push: I-5 … (+1 more: AC-GOLDEN)` (one per failed
/// case, its root cause first, see `CaseFailure`) and
/// `ERROR <suite> › <case>: <reason>` (one per errored case); skipped cases are named as
/// `SKIP <suite>: <reason>` (the first few, with the first reason each); the verdict looks like
/// `accord: 41 cases (40 passed, 0 failed, 1 skipped), 612 steps: 598 passed, 0 failed, 14 skipped, 0 errors; 759 steps left to the client lane`
/// (a case is a suite: a corpus case or a recording; a step is one of its test cases. The steps
/// suites count in their `left_to_<lane>_lane` properties are checked by the other lane, not here).
public struct ConsoleSummary: Sendable {
    /// How many failure lines `init()` keeps.
    public static let defaultFailureLimit = 10

    /// The counts over every case added.
    public private(set) var tally = Tally()
    /// How many suites were added.
    public private(set) var suites = 0
    /// Suites with no failed or errored case and at least one passed case.
    public private(set) var passedSuites = 0
    /// Suites with a failed or errored case.
    public private(set) var failedSuites = 0
    /// Suites whose every case was skipped (e.g. a blocked manifest entry).
    public private(set) var skippedSuites = 0

    /// Steps each other lane checks that this run's suites left to it, by lane (`client`, `server`).
    public private(set) var leftToOtherLanes: [String: Int] = [:]
    /// Suites of blocked manifest entries that hold no test case (`SuiteResult.isBlocked`).
    public private(set) var blocked = 0

    private let failureLimit: Int
    private var kept: [Line] = []
    private var unkept = 0
    private var skippedKept: [Line] = []

    private struct Line: Sendable {
        var isError: Bool
        var text: String
    }

    /// Makes an empty summary that keeps the first `defaultFailureLimit` failure lines.
    public init() {
        self.init(failureLimit: Self.defaultFailureLimit)
    }

    /// Makes an empty summary that keeps the first `failureLimit` failure lines.
    /// - Parameter failureLimit: how many failure lines to keep; negative counts as zero.
    public init(failureLimit: Int) {
        self.failureLimit = max(0, failureLimit)
    }

    /// Whether the run, as added so far, passes: no case failed or errored.
    public var isPassing: Bool { tally.failures == 0 && tally.errors == 0 }

    /// Counts a suite's cases (those it did not keep included) and keeps its failure lines while
    /// there is room.
    public mutating func add(_ suite: SuiteResult) {
        let suiteTally = suite.tally
        suites += 1
        tally.add(suiteTally)
        if suite.isBlocked { blocked += 1 }
        leftToOtherLanes.merge(suite.leftToOtherLanes, uniquingKeysWith: +)
        if suiteTally.failures + suiteTally.errors > 0 {
            failedSuites += 1
        } else if suiteTally.passed == 0 || suite.unsupported != nil {
            skippedSuites += 1
            if skippedKept.count < failureLimit {
                skippedKept.append(Line(isError: false, text: "\(suite.name): \(Self.skipReason(suite))"))
            }
        } else {
            passedSuites += 1
        }
        for result in suite.cases {
            switch result.outcome {
            case .passed, .skipped:
                break
            case .failed(let failures) where failures.isEmpty:
                keep(Line(isError: false, text: "\(suite.name) › \(result.name)"))
            case .failed(let failures):
                keep(Line(isError: false, text: Self.failureLine(suite: suite.name, CaseFailure(failures))))
            case .errored(let reason):
                keep(Line(isError: true, text: "\(suite.name) › \(result.name): \(reason)"))
            }
        }
    }

    /// Renders the kept failure lines (at most `maxFailures`), a count of the rest, and the verdict.
    /// - Parameters:
    ///   - color: whether to use ANSI colours.
    ///   - maxFailures: the most failure lines to show.
    /// - Returns: the text, lines separated by LF, without a trailing newline.
    public func render(color: Bool, maxFailures: Int = 10) -> String {
        (failureLines(color: color, maxFailures: maxFailures) + skippedLines() + [verdict(color: color)]).joined(separator: "\n")
    }

    /// The kept failure lines (at most `maxFailures`) and, when some are not shown, a count of the rest:
    /// what a run prints for a failing suite as soon as it ends.
    /// - Parameters:
    ///   - color: whether to use ANSI colours.
    ///   - maxFailures: the most failure lines to show.
    /// - Returns: the lines, without line ends.
    public func failureLines(color: Bool, maxFailures: Int = 10) -> [String] {
        var lines: [String] = []
        let shown = kept.prefix(max(0, maxFailures))
        for line in shown {
            let label = line.isError ? "ERROR" : "FAIL"
            let styled = color ? "\(line.isError ? Style.magenta : Style.red)\(label)\(Style.reset)" : label
            lines.append("\(styled) \(Self.printable(line.text))")
        }
        let more = kept.count + unkept - shown.count
        if more > 0 {
            lines.append("… and " + Quantity.of(more, "more failure"))
        }
        return lines
    }

    /// The skipped cases (suites), one line each with the first reason, at most `maxSuites`, and a
    /// count of the rest: what a run prints before its verdict, so a case that did not run is named.
    /// - Parameter maxSuites: the most suites to name.
    /// - Returns: the lines, without line ends.
    public func skippedLines(maxSuites: Int = 5) -> [String] {
        let shown = skippedKept.prefix(max(0, maxSuites))
        var lines = shown.map { "SKIP \(Self.printable($0.text))" }
        let more = skippedSuites - shown.count
        if more > 0 { lines.append("… and " + Quantity.of(more, "more skipped case")) }
        return lines
    }

    /// The one-line verdict over every suite added.
    /// - Parameter color: whether to use ANSI colours.
    /// - Returns: the line, without a line end.
    public func verdict(color: Bool) -> String {
        let verdict =
            "accord: \(Quantity.of(suites, "case")) (\(passedSuites) passed, \(failedSuites) failed, \(skippedSuites) skipped), "
            + "\(Quantity.of(tally.tests, "step")): "
            + "\(tally.passed) passed, \(tally.failures) failed, \(tally.skipped) skipped, "
            + Quantity.of(tally.errors, "error")
            + leftToOtherLanes.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map {
                "; \(Quantity.of($0.value, "step")) left to the \($0.key) lane"
            }
            .joined()
            + (blocked > 0 ? "; \(Quantity.of(blocked, "case")) blocked on open decisions" : "")
        return color ? "\(isPassing ? Style.green : Style.red)\(verdict)\(Style.reset)" : verdict
    }

    /// The console line of a failed case: its root cause's message (which names the step), and
    /// how many other findings the case has, by rule, e.g.
    /// `push/003 › step 7 push: I-5 verdict 0 answers m2, expected m1 (request order) (+1 more: AC-GOLDEN)`.
    /// - Parameters:
    ///   - suite: the suite's name.
    ///   - failure: the case's failure.
    /// - Returns: the line, without the `FAIL` label.
    public static func failureLine(suite: String, _ failure: CaseFailure) -> String {
        let others = failure.failures.dropFirst().map(\.ruleID.rawValue)
        var seen = Set<String>()
        let rules = others.filter { seen.insert($0).inserted }
        let more = others.isEmpty ? "" : " (+\(others.count) more: \(rules.joined(separator: ", ")))"
        return "\(suite) › \(failure.message)\(more)"
    }

    /// Why a suite checked nothing: its first skip reason, its open decisions, or the lane its
    /// steps were left to.
    private static func skipReason(_ suite: SuiteResult) -> String {
        if let unsupported = suite.unsupported { return unsupported }
        if let reason = suite.cases.lazy.compactMap({ if case .skipped(let why) = $0.outcome { why } else { nil } }).first { return reason }
        if let decisions = suite.properties.first(where: { $0.name == SuiteResult.blockedProperty }) {
            return "blocked on open decisions (\(decisions.value))"
        }
        let left = suite.leftToOtherLanes.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        if !left.isEmpty {
            return "nothing for this lane: "
                + left.map { "\(Quantity.of($0.value, "step")) left to the \($0.key) lane" }.joined(separator: ", ")
        }
        return "no step to check"
    }

    private mutating func keep(_ line: Line) {
        if kept.count < failureLimit { kept.append(line) } else { unkept += 1 }
    }

    private enum Style {
        static let red = "\u{1B}[1;31m"
        static let magenta = "\u{1B}[1;35m"
        static let green = "\u{1B}[1;32m"
        static let reset = "\u{1B}[0m"
    }

    /// Replaces control characters (C0, DEL, C1) with `\uXXXX`, so that text from a target can
    /// neither break the line nor drive the terminal.
    static func printable(_ text: String) -> String {
        let isControl: (Unicode.Scalar) -> Bool = { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
