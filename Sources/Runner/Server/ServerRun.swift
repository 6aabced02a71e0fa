import Corpus
import Foundation
import Reports
import ServerContract

/// `accord run --server`: the server lane over corpus folders and transcripts, cases in
/// parallel on isolated targets.
public struct ServerRun: Sendable {
    /// Makes a fresh, isolated target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any ServerTarget

    /// What to run and where to report.
    public struct Options: Sendable {
        /// Corpus folders or transcript files.
        public var paths: [String]
        /// The target's name for reports ("embedded" or a URL).
        public var targetName: String
        /// Per-case setup.
        public var scenarios: Scenarios
        /// Cases that must fail.
        public var knownFailing: KnownFailing
        /// A glob over case ids.
        public var filter: String?
        /// This run's shard, 1-based, and the shard count.
        public var shard: (index: Int, count: Int)
        /// Cases run at once.
        public var jobs: Int
        /// The tier a step must reach to pass.
        public var requiredTier: ResponseTier
        /// Where to write JUnit XML.
        public var junitPath: String?
        /// Where to write the JSON report.
        public var jsonPath: String?
        /// Whether the console summary uses colour.
        public var color: Bool

        /// Makes options.
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - targetName: the target's name.
        public init(paths: [String], targetName: String) {
            self.paths = paths
            self.targetName = targetName
            self.scenarios = Scenarios()
            self.knownFailing = KnownFailing()
            self.filter = nil
            self.shard = (1, 1)
            self.jobs = 2
            self.requiredTier = .pass
            self.junitPath = nil
            self.jsonPath = nil
            self.color = false
        }
    }

    /// Runs the lane.
    /// - Parameters:
    ///   - options: what to run.
    ///   - makeTarget: makes one isolated target per case.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report.
    public static func run(_ options: Options, makeTarget: @escaping TargetFactory, output: (String) -> Void) async throws(RunError) -> Bool
    {
        try CheckRun.checkReportPaths(junit: options.junitPath, json: options.jsonPath, inputs: options.paths)
        let all = try loadCases(options.paths)
        let cases = try select(all, options)
        let lane = ServerLane(scenarios: options.scenarios, requiredTier: options.requiredTier)
        var reports = try ReportFanout(
            junitPath: options.junitPath, jsonPath: options.jsonPath, name: "accord run --server \(options.targetName)")
        let properties = [
            SuiteResult.Property(name: "lane", value: "server"), SuiteResult.Property(name: "target", value: options.targetName),
            SuiteResult.Property(name: "accord_version", value: CheckRun.accordVersion),
        ]
        let blocked = cases.compactMap { item -> SuiteResult? in
            guard case .blocked(let entry) = item.kind else { return nil }
            return TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties)
        }
        let runnable = cases.compactMap { item -> LoadedTranscript? in
            if case .transcript(let loaded) = item.kind { return loaded }
            return nil
        }
        let results = await withTaskGroup(of: (Int, SuiteResult).self) { group in
            var next = 0
            var collected: [(Int, SuiteResult)] = []
            func launch(_ index: Int) {
                let loaded = runnable[index]
                group.addTask {
                    let started = ContinuousClock.now
                    var suite: SuiteResult
                    do throws(TargetError) {
                        suite = await lane.run(loaded, on: try makeTarget(), properties: properties)
                    } catch {
                        suite = SuiteResult(
                            name: loaded.transcript.caseID, file: loaded.file, properties: properties,
                            cases: [
                                CaseResult(name: "target", classname: "kizuna.\(loaded.transcript.area)", outcome: .errored("\(error)"))
                            ])
                    }
                    suite.time = CheckRun.seconds(since: started)
                    return (index, suite)
                }
            }
            while next < min(max(1, options.jobs), runnable.count) {
                launch(next)
                next += 1
            }
            for await result in group {
                collected.append(result)
                if next < runnable.count {
                    launch(next)
                    next += 1
                }
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        for suite in results { try reports.add(options.knownFailing.apply(to: suite)) }
        for suite in blocked { try reports.add(suite) }
        if let unknown = options.knownFailing.unknownEntries(among: Set(all.map(\.id))) {
            try reports.add(unknown)
        }
        try reports.finish()
        output(reports.summary.render(color: options.color))
        return reports.summary.isPassing
    }

    /// A case to run, or a blocked manifest entry to report as skipped.
    struct LaneCase: Sendable {
        enum Kind: Sendable {
            case transcript(LoadedTranscript)
            case blocked(Manifest.Entry)
        }
        var kind: Kind
        var id: String
        var decisions: [String: String]
    }

    /// Every case of the inputs, blocked entries included, before filtering and sharding.
    static func loadCases(_ paths: [String]) throws(RunError) -> [LaneCase] {
        var loaded: [LaneCase] = []
        for path in paths {
            switch try CheckInput.classify(path) {
            case .corpus(let folder):
                let decisions = CorpusProvenance.read(FolderFiles(root: folder))
                do throws(CorpusError) {
                    for item in try Corpus(files: FolderFiles(root: folder)).cases {
                        switch item {
                        case .transcript(let transcript, _):
                            loaded.append(LaneCase(kind: .transcript(transcript), id: item.id, decisions: decisions))
                        case .blocked(let entry):
                            loaded.append(LaneCase(kind: .blocked(entry), id: item.id, decisions: decisions))
                        }
                    }
                } catch {
                    throw RunError.input(error)
                }
            case .transcript(let file):
                do throws(CorpusError) {
                    let transcript = try LoadedTranscript(raw: try FileBytes.read(file), file: file)
                    loaded.append(LaneCase(kind: .transcript(transcript), id: transcript.transcript.caseID, decisions: [:]))
                } catch {
                    throw RunError.input(error)
                }
            case .recording(let file):
                throw RunError.usage("\(file): recordings replay in the server lane in a later version; use accord check for them")
            }
        }
        return loaded
    }

    /// The cases this run plays: those matching the filter, then this shard's share.
    static func select(_ loaded: [LaneCase], _ options: Options) throws(RunError) -> [LaneCase] {
        let filtered = loaded.filter { CheckRun.matches($0.id, options.filter) }
        if filtered.isEmpty, let filter = options.filter { throw RunError.usage("--filter '\(filter)' matches no case id") }
        return filtered.enumerated().filter { $0.offset % options.shard.count == options.shard.index - 1 }.map(\.element)
    }
}
