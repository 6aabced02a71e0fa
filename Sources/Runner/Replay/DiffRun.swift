import Corpus
import Foundation
import KizunaWire
import Reports
import ServerContract

/// `accord diff`: replays recordings against two servers (a freshly seeded target of each per
/// recording, bindings kept per target) and compares the two live responses of every exchange:
/// canonical bytes first, and the semantic tier (server-made values masked) as a second level.
/// Every differing JSON pointer is reported with its exchange.
public struct DiffRun: Sendable {
    /// What to compare and where to report.
    public struct Options: Sendable {
        /// Recording files.
        public var paths: [String]
        /// The two targets' names for reports.
        public var targetNames: (String, String)
        /// `.pass`: any byte difference counts (default); `.semantic`: differences only in
        /// server-made values are accepted.
        public var requiredTier = ResponseTier.pass
        /// Where to write JUnit XML.
        public var junitPath: String?
        /// Where to write the JSON report.
        public var jsonPath: String?
        /// Whether the console summary uses colour.
        public var color = false

        /// Makes options.
        /// - Parameters:
        ///   - paths: the recordings.
        ///   - targetNames: the two targets' names.
        public init(paths: [String], targetNames: (String, String)) {
            self.paths = paths
            self.targetNames = targetNames
        }
    }

    /// The most differences listed per exchange.
    static let maximumListed = 20

    /// Runs the comparison.
    /// - Parameters:
    ///   - options: what to compare.
    ///   - makeA: makes a fresh first target.
    ///   - makeB: makes a fresh second target.
    ///   - output: receives the console text.
    /// - Returns: true when every exchange answered alike.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(
        _ options: Options, makeA: @escaping ServerRun.TargetFactory, makeB: @escaping ServerRun.TargetFactory, output: (String) -> Void
    ) async throws(RunError) -> Bool {
        if options.paths.isEmpty { throw RunError.usage("accord diff needs at least one RECORDING") }
        try CheckRun.checkReportPaths(junit: options.junitPath, json: options.jsonPath, inputs: options.paths)
        var recordings: [(RecordingContents, String)] = []
        for path in options.paths {
            guard case .recording(let file) = try CheckInput.classify(path) else {
                throw RunError.usage(
                    "\(path) is not a recording: accord diff replays recordings (convert a transcript with accord convert)")
            }
            recordings.append((try RecordingFile.load(file), file))
        }
        let (nameA, nameB) = options.targetNames
        var reports = try ReportFanout(junitPath: options.junitPath, jsonPath: options.jsonPath, name: "accord diff \(nameA) \(nameB)")
        let properties = [
            SuiteResult.Property(name: "lane", value: "diff"), SuiteResult.Property(name: "target", value: "\(nameA) vs \(nameB)"),
            SuiteResult.Property(name: "accord_version", value: CheckRun.accordVersion),
        ]
        for (recording, file) in recordings {
            let started = ContinuousClock.now
            let seed = ReplayPlayer.seed(for: recording, config: nil)
            let liveA = await ReplayPlayer.play(recording, seed: seed, makeTarget: makeA)
            let liveB = await ReplayPlayer.play(recording, seed: seed, makeTarget: makeB)
            let cases = zip(liveA, liveB).map { compare($0, $1, names: options.targetNames, requiredTier: options.requiredTier) }
            let name = file.split(separator: "/").last.map(String.init) ?? file
            var suite = SuiteResult(
                name: name, file: file, properties: properties,
                cases: cases.isEmpty
                    ? [CaseResult(name: "no exchanges", classname: "kizuna.diff", outcome: .skipped("the recording holds no exchanges"))]
                    : cases)
            suite.time = CheckRun.seconds(since: started)
            try reports.add(suite)
        }
        try reports.finish()
        output(reports.summary.render(color: options.color))
        return reports.summary.isPassing
    }

    /// Compares one exchange as two targets answered it.
    static func compare(_ a: LiveExchange, _ b: LiveExchange, names: (String, String), requiredTier: ResponseTier) -> CaseResult {
        let classname = "kizuna.diff"
        switch (a.outcome, b.outcome) {
        case (.skipped(let reason), _), (_, .skipped(let reason)):
            return CaseResult(name: a.name, classname: classname, outcome: .skipped(reason))
        case (.errored(let reason), _):
            return CaseResult(name: a.name, classname: classname, outcome: .errored("\(names.0): \(reason)"))
        case (_, .errored(let reason)):
            return CaseResult(name: a.name, classname: classname, outcome: .errored("\(names.1): \(reason)"))
        case (.answered(_, _, let replyA, _), .answered(_, _, let replyB, _)):
            let label = "exchange \(a.exchange.number) \(a.exchange.rpc)"
            var failures: [Failure] = []
            if replyA.status != replyB.status {
                failures.append(
                    Failure(
                        ruleID: "AC-DIFF", message: "\(label): HTTP status \(replyA.status) on \(names.0), \(replyB.status) on \(names.1)"))
            }
            let (tier, _) = ResponseTier.compare(replyB.body, golden: replyA.body)
            if tier == .pass && failures.isEmpty {
                return CaseResult(name: a.name, classname: classname, outcome: .passed, note: "identical canonical bytes")
            }
            if tier == .semantic && requiredTier == .semantic && failures.isEmpty {
                return CaseResult(
                    name: a.name, classname: classname, outcome: .passed,
                    note: "equal once seq, cursor, winner_seq and deleted_at are masked")
            }
            let pointers = differences(replyA.body, replyB.body, at: .root)
            for pointer in pointers.prefix(maximumListed) {
                let masked = ResponseTier.mask(replyA.body).value(at: pointer) == ResponseTier.mask(replyB.body).value(at: pointer)
                failures.append(
                    Failure(
                        ruleID: "AC-DIFF",
                        message: "\(label): responses differ at \(RecordingReplay.show(pointer))\(masked ? " (a server-made value)" : "")",
                        body: "\(names.0): " + CanonicalJSON.compact(replyA.body.value(at: pointer) ?? .null) + "\n\(names.1): "
                            + CanonicalJSON.compact(replyB.body.value(at: pointer) ?? .null)))
            }
            if pointers.count > maximumListed {
                failures.append(
                    Failure(ruleID: "AC-DIFF", message: "\(label): \(pointers.count - maximumListed) more differences not listed"))
            }
            return CaseResult(name: a.name, classname: classname, outcome: .failed(failures), note: "tier \(tier.rawValue)")
        }
    }

    /// Every pointer at which two values differ: leaves that differ, members only one side has,
    /// array elements past the shorter array; depth first, keys in byte order.
    /// - Parameters:
    ///   - lhs: one value.
    ///   - rhs: the other.
    ///   - pointer: where they sit.
    /// - Returns: the pointers, empty when the values are equal.
    public static func differences(_ lhs: JSONValue, _ rhs: JSONValue, at pointer: JSONPointer) -> [JSONPointer] {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            let keys = Set(left.keys).union(right.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return keys.flatMap { key -> [JSONPointer] in
                guard let a = left[key], let b = right[key] else { return [pointer.appending(key)] }
                return differences(a, b, at: pointer.appending(key))
            }
        case (.array(let left), .array(let right)):
            return (0..<max(left.count, right.count)).flatMap { index -> [JSONPointer] in
                guard index < left.count, index < right.count else { return [pointer.appending(index)] }
                return differences(left[index], right[index], at: pointer.appending(index))
            }
        default:
            return CanonicalJSON.compact(lhs) == CanonicalJSON.compact(rhs) ? [] : [pointer]
        }
    }
}
