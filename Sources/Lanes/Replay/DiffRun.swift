import AccordVersion
import Capture
import Corpus
import Foundation
import Harness
import JSON
import KizunaWire
import PowerSyncWire
import Reports
import ServerContract

/// `accord diff`: replays recordings against two servers (a freshly seeded target of each per
/// recording, bindings kept per target) and compares the two live responses of every exchange:
/// canonical bytes first, and the bound tier (the first server's server-made values bound to the
/// second's, a bijection that keeps order) as a second level. Every differing JSON pointer is
/// reported with its exchange.
public struct DiffRun: Sendable {
    /// What to compare and where to report.
    public struct Options: Sendable {
        /// The recordings, the reports and the console (diff uses no filter, shard or jobs).
        public var run: RunOptions
        /// The two targets' names for reports.
        public var targetNames: (String, String)
        /// `.pass`: any byte difference counts (default); `.bound`: differences only in
        /// server-made values that bind consistently are accepted.
        public var requiredTier = ResponseTier.pass

        /// Makes options.
        /// - Parameters:
        ///   - paths: the recordings.
        ///   - targetNames: the two targets' names.
        public init(paths: [String], targetNames: (String, String)) {
            self.run = RunOptions(paths: paths)
            self.targetNames = targetNames
        }
    }

    /// The most differences listed per exchange.
    static let maximumListed = 20

    /// What to compare.
    let options: Options
    /// Make a fresh first and second target.
    let makeA: KizunaSync.TargetFactory
    let makeB: KizunaSync.TargetFactory
    /// Make a fresh PowerSync service of each target, nil when a target serves no PowerSync profile.
    let powerSync: (PowerSync.TargetFactory, PowerSync.TargetFactory)?

    /// Runs the comparison; returns true when every exchange answered alike. A PowerSync
    /// recording (`PowerSync.RecordingToTranscript.isPowerSync`) is compared on the two PowerSync
    /// targets (`PowerSync.Diff`); without them its suite is skipped, saying why.
    /// - Throws: `RunError` for bad input, an unwritable report or a target that cannot be tested.
    public static func run(
        _ options: Options, makeA: @escaping KizunaSync.TargetFactory, makeB: @escaping KizunaSync.TargetFactory,
        powerSync: (PowerSync.TargetFactory, PowerSync.TargetFactory)? = nil, output: (String) -> Void
    ) async throws(RunError) -> Bool {
        if options.run.inputs.paths.isEmpty { throw RunError.usage("accord diff needs at least one RECORDING") }
        for path in options.run.inputs.paths {
            guard case .recording = try CheckInput.classify(path) else {
                throw RunError.usage(
                    "\(path) is not a recording: accord diff replays recordings (convert a transcript with accord convert)")
            }
        }
        var run = options.run
        // One recording at a time, each target holding one exchange at a time; the summary only,
        // and a run that compares nothing is not an error here.
        run.selection.jobs = 1
        run.console = RunOptions.Console(color: options.run.console.color, quiet: true, allowEmpty: true)
        let lane = DiffRun(options: options, makeA: makeA, makeB: makeB, powerSync: powerSync)
        return try await LaneRunner(run).run(lane, output: output)
    }
}

extension DiffRun: Lane {
    /// A recording to compare, and whether it is a PowerSync session.
    package struct Unit: Sendable {
        var file: String
        var powerSync: Bool
    }

    package var reportName: String { "accord diff \(options.targetNames.0) \(options.targetNames.1)" }
    package var reading: CaseSource.Reading { .recorded }

    /// The PowerSync recordings among the inputs; with `preflight`, the targets their profiles
    /// need are checked (a target that cannot be tested as given is one setup line, exit 78, as in
    /// accord run, not an error per recording).
    package func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) -> Set<String> {
        var powerSyncFiles: Set<String> = []
        var kizunaSync = false
        for case .recording(let source) in cases.map(\.kind) {
            if try CaseSource.isPowerSync(source.file, maxLine: options.run.inputs.maxLine) {
                powerSyncFiles.insert(source.file)
            } else {
                kizunaSync = true
            }
        }
        guard preflight else { return powerSyncFiles }
        let (nameA, nameB) = options.targetNames
        if kizunaSync {
            try await ServerRun.preflight(makeA, name: nameA)
            try await ServerRun.preflight(makeB, name: nameB)
        }
        if !powerSyncFiles.isEmpty, let (powerSyncA, powerSyncB) = powerSync {
            try await ServerRun.preflight(powerSyncA, name: nameA)
            try await ServerRun.preflight(powerSyncB, name: nameB)
        }
        return powerSyncFiles
    }

    package func plan(_ cases: [CaseSource.Case], _ powerSyncFiles: Set<String>) -> [LanePlan<Unit>] {
        cases.compactMap { item in
            guard case .recording(let source) = item.kind else { return nil }
            return .play(Unit(file: source.file, powerSync: powerSyncFiles.contains(source.file)))
        }
    }

    /// The properties every suite carries.
    var properties: [SuiteResult.Property] {
        Self.properties(.diff, target: "\(options.targetNames.0) vs \(options.targetNames.1)")
    }

    /// Replays one recording on a fresh target of each and compares every exchange.
    package func play(_ unit: Unit, _: Set<String>) async throws(RunError) -> SuiteResult {
        let file = unit.file
        let maxLine = options.run.inputs.maxLine
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let classname = CaseResult.classname(lane: "diff", caseID: "recording/" + name)
        if unit.powerSync {
            var suite = try await Self.powerSyncSuite(
                try RecordingFile.load(file, maxLine: maxLine), file: file, classname: classname, names: options.targetNames,
                powerSync: powerSync)
            suite.properties = properties + suite.properties
            return suite
        }
        // Both targets replay the same world, exchange by exchange, holding one exchange at a time.
        let source = RecordingSource.file(file, maxLine: maxLine)
        let plan = try RecordingReplay.survey(source)
        var playerA = ReplayPlayer(world: plan.world, makeTarget: makeA)
        var playerB = ReplayPlayer(world: plan.world, makeTarget: makeB)
        var across = Bindings(times: .order)
        var cases: [CaseResult] = []
        let stream = try source.stream()
        while let item = try stream.next() {
            guard case .exchange(let exchange) = item else { continue }
            let a = await playerA.play(exchange)
            let b = await playerB.play(exchange)
            var result = Self.compare(a, b, across: &across, names: options.targetNames, requiredTier: options.requiredTier)
            result.time = a.seconds + b.seconds
            cases.append(result)
        }
        if let torn = plan.tornLine { cases.append(RecordingReplay.tornTail(torn, classname: classname, done: "compared")) }
        return SuiteResult(
            name: name, file: file, properties: properties,
            cases: cases.isEmpty
                ? [CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no exchanges"))]
                : cases.map { result in
                    var named = result
                    named.classname = classname
                    return named
                })
    }

    /// The suite of a PowerSync recording: its exchange steps as two PowerSync services answered them.
    static func powerSyncSuite(
        _ recording: RecordingContents, file: String, classname: String, names: (String, String),
        powerSync: (PowerSync.TargetFactory, PowerSync.TargetFactory)?
    ) async throws(RunError) -> SuiteResult {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let profile = [PowerSync.profileProperty]
        guard let (makeA, makeB) = powerSync else {
            let reason =
                "not applicable: a PowerSync recording, and \(names.0) or \(names.1) serves no PowerSync profile (accord diff compares PowerSync recordings on 'embedded' or a PowerSync service's URL with --jwt-secret)"
            return SuiteResult(
                name: name, file: file, properties: profile,
                cases: [CaseResult(name: "powersync", classname: classname, outcome: .skipped(reason))])
        }
        let loaded: PowerSync.LoadedTranscript
        do throws(CorpusError) { loaded = try PowerSync.RecordingToTranscript.replay(recording, file: file).loaded } catch {
            throw RunError.input(error)
        }
        var cases = await PowerSync.Diff(loaded: loaded, names: names, classname: classname).cases(makeA: makeA, makeB: makeB)
        if cases.isEmpty {
            cases = [CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no PowerSync exchange"))]
        }
        if let torn = recording.tornLine { cases.append(RecordingReplay.tornTail(torn, classname: classname, done: "compared")) }
        return SuiteResult(name: name, file: file, properties: profile, cases: cases)
    }

    /// Compares one exchange as two targets answered it; `across` binds the first target's
    /// server-made values to the second's, over the whole recording.
    static func compare(
        _ a: LiveExchange, _ b: LiveExchange, across: inout Bindings, names: (String, String), requiredTier: ResponseTier
    ) -> CaseResult {
        let classname = "kizuna.diff.recording"
        switch (a.outcome, b.outcome) {
        case (.skipped(let reason), _), (_, .skipped(let reason)):
            return CaseResult(name: a.name, classname: classname, outcome: .skipped(reason))
        case (.errored(let reason), _):
            return CaseResult(name: a.name, classname: classname, outcome: .errored("\(names.0): \(reason)"))
        case (_, .errored(let reason)):
            return CaseResult(name: a.name, classname: classname, outcome: .errored("\(names.1): \(reason)"))
        case (.answered(_, _, let replyA, _, _), .answered(_, _, let replyB, _, _)):
            let label = "exchange \(a.exchange.number) \(a.exchange.rpc)"
            var failures: [Failure] = []
            if replyA.status != replyB.status {
                failures.append(
                    Failure(
                        ruleID: "AC-DIFF", message: "\(label): HTTP status \(replyA.status) on \(names.0), \(replyB.status) on \(names.1)"))
            }
            let learning = across.learn(golden: replyA.body, live: replyB.body, at: label)
            if CanonicalJSON.compact(replyA.body) == CanonicalJSON.compact(replyB.body) && failures.isEmpty
                && learning.violations.isEmpty
            {
                return CaseResult(name: a.name, classname: classname, outcome: .passed, note: "identical canonical bytes")
            }
            let translated = across.translate(replyA.body, answeredBy: replyB.body)
            let bound = learning.violations.isEmpty && CanonicalJSON.compact(translated) == CanonicalJSON.compact(replyB.body)
            if bound && requiredTier == .bound && failures.isEmpty {
                return CaseResult(
                    name: a.name, classname: classname, outcome: .passed,
                    note: "equal once \(names.0)'s server-made values are bound to \(names.1)'s")
            }
            failures += learning.violations.map {
                Failure(
                    ruleID: "AC-DIFF", message: "\(label): AC-BINDING \($0.message)",
                    body: "\(names.0): \($0.golden)\n\(names.1): \($0.live)")
            }
            let pointers = replyA.body.differences(from: replyB.body)
            for pointer in pointers.prefix(maximumListed) {
                let serverMade = pointer.tokens.last.map { ResponseTier.serverMadeKeys.contains($0) } ?? false
                failures.append(
                    Failure(
                        ruleID: "AC-DIFF",
                        message:
                            "\(label): responses differ at \(BindingViolation.show(pointer))\(serverMade ? " (a server-made value)" : "")",
                        body: "\(names.0): " + CanonicalJSON.compact(replyA.body.value(at: pointer) ?? .null) + "\n\(names.1): "
                            + CanonicalJSON.compact(replyB.body.value(at: pointer) ?? .null)))
            }
            if pointers.count > maximumListed {
                failures.append(
                    Failure(ruleID: "AC-DIFF", message: "\(label): \(pointers.count - maximumListed) more differences not listed"))
            }
            return CaseResult(
                name: a.name, classname: classname, outcome: .failed(failures), note: "tier \(bound ? "bound" : "diverged")")
        }
    }
}
