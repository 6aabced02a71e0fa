import AccordVersion
import Checks
import Corpus
import Foundation
import Harness
import Reports

/// `accord check`: the offline lane over corpus folders, transcripts and recordings.
public struct CheckRun {
    /// What to check and where to report.
    public struct Options: Sendable {
        /// The inputs, the filter, the reports and the console (the check lane uses no shard or jobs).
        public var run: RunOptions

        /// Makes options.
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - junitPath: the JUnit path.
        ///   - jsonPath: the JSON report path.
        ///   - filter: the case-id glob.
        ///   - color: colour on the console.
        public init(paths: [String], junitPath: String? = nil, jsonPath: String? = nil, filter: String? = nil, color: Bool = false) {
            run = RunOptions(paths: paths)
            run.reports = ReportPaths(junit: junitPath, json: jsonPath)
            run.selection.filter = filter
            run.console.color = color
        }
    }

    /// What to check.
    let options: Options

    /// Runs the check; returns true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report (exit 64).
    public static func run(_ options: Options, output: (String) -> Void) async throws(RunError) -> Bool {
        if options.run.inputs.paths.isEmpty {
            throw RunError.usage("accord check needs at least one PATH (a corpus folder, transcript or recording)")
        }
        var run = options.run
        // The check lane prints its summary only, and a run that checks nothing is not an error here.
        run.console = RunOptions.Console(color: options.run.console.color, quiet: true, allowEmpty: true)
        return try await LaneRunner(run).run(CheckRun(options: options), output: output)
    }

    /// One unit of the offline lane: a transcript of any profile with its suite's properties, or
    /// a recording streamed through the rules.
    package enum Unit: Sendable {
        case transcript(any ProfiledCase, [SuiteResult.Property])
        case recording(String)
    }
}

extension CheckRun: Lane {
    package var reportName: String { "accord check" }
    package var reading: CaseSource.Reading { .recorded }

    /// Nothing to check before the first case: the lane plays no target.
    package func prepare(_ cases: [CaseSource.Case], preflight: Bool) {}

    /// Every case in input order, blocked entries where the corpus lists them; a KizunaSync
    /// corpus's entries name its commit, read once per folder.
    package func plan(_ cases: [CaseSource.Case], _: Void) -> [LanePlan<Unit>] {
        var commits: [String: String] = [:]
        func withCommit(_ properties: [SuiteResult.Property], _ folder: String?) -> [SuiteResult.Property] {
            guard let folder else { return properties }
            let commit = commits[folder] ?? CorpusProvenance.corpusCommit(FolderFiles(root: folder)) ?? "unknown"
            commits[folder] = commit
            return properties + [SuiteResult.Property(name: "corpus_commit", value: commit)]
        }
        return cases.map { item in
            let properties = Self.properties(target: "offline", corpus: item.folder)
            switch item.kind {
            case .transcript(let loaded): return .play(.transcript(loaded, withCommit(properties, item.folder)))
            case .powerSync(let loaded): return .play(.transcript(loaded, properties))
            case .recording(let source): return .play(.recording(source.file))
            case .blocked(let entry):
                return .notPlayed(
                    TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: withCommit(properties, item.folder)))
            case .unsupported(let file, let reason):
                return .notPlayed(CaseSource.unsupportedSuite(item.id, file: file, reason: reason, properties: properties))
            }
        }
    }

    package func play(_ unit: Unit, _: Void) throws(RunError) -> SuiteResult {
        switch unit {
        case .transcript(let loaded, let properties):
            return loaded.checked(properties: properties)
        case .recording(let path):
            return try Self.checkRecording(path, keepPassing: options.run.reports.writesFiles, maxLine: options.run.inputs.maxLine)
        }
    }

    static func checkRecording(_ path: String, keepPassing: Bool, maxLine: Int) throws(RunError) -> SuiteResult {
        var reader = RecordingReader(file: path, maxLine: maxLine)
        var check = RecordingCheck(keepPassing: keepPassing)
        var drawing = RecordingTimeline()
        do throws(CorpusError) {
            try FileBytes.stream(path) { chunk throws(CorpusError) in
                try reader.feed(chunk) { item in
                    check.observe(item)
                    drawing.observe(item)
                }
            }
            try reader.finish { item in
                check.observe(item)
                drawing.observe(item)
            }
        } catch {
            throw RunError.input(error)
        }
        return check.suite(file: path, tornLine: reader.tornLine, properties: properties(target: "offline", corpus: nil))
            .drawing(drawing.timeline)
    }

    static func properties(target: String, corpus: String?) -> [SuiteResult.Property] {
        var properties = properties(.check, target: target)
        if let corpus { properties.append(SuiteResult.Property(name: "corpus", value: corpus)) }
        return properties
    }
}
