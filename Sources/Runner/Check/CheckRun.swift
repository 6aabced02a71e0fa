import AccordVersion
import Checks
import Corpus
import Foundation
import KizunaWire
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

    /// Runs the check.
    /// - Parameters:
    ///   - options: the options.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report (exit 64).
    public static func run(_ options: Options, output: (String) -> Void) throws(RunError) -> Bool {
        let inputPaths = options.run.inputs.paths
        let maxLine = options.run.inputs.maxLine
        let filter = options.run.selection.filter
        if inputPaths.isEmpty { throw RunError.usage("accord check needs at least one PATH (a corpus folder, transcript or recording)") }
        let paths = options.run.reports
        try paths.check(inputs: inputPaths)
        let inputs = try inputPaths.map { path throws(RunError) in try CheckInput.classify(path) }
        var matched = 0
        // The check lane prints its summary only, and a run that checks nothing is not an error here.
        var reports = try ReportSession(
            paths, name: "accord check", console: ReportSession.Console(color: options.run.console.color, quiet: true, allowEmpty: true),
            total: 0)
        let keepPassing = paths.writesFiles
        for input in inputs {
            switch input {
            case .corpus(let path):
                let profile: CorpusProfile
                do throws(CorpusError) { profile = try CorpusProfile.of(folder: FolderFiles(root: path)) } catch {
                    throw RunError.input(error)
                }
                if profile == .powerSync {
                    for suite in try powerSyncCorpusSuites(path, maxLine: maxLine, filter: filter) {
                        matched += 1
                        try reports.add(suite)
                    }
                    continue
                }
                let corpus: Corpus
                do throws(CorpusError) { corpus = try Corpus(files: FolderFiles(root: path, limit: maxLine)) } catch {
                    throw RunError.input(error)
                }
                let decisions = CorpusProvenance.read(FolderFiles(root: path))
                let commit = CorpusProvenance.corpusCommit(FolderFiles(root: path))
                for item in corpus.cases where CaseSource.matches(item.id, filter) {
                    matched += 1
                    var properties = properties(target: "offline", corpus: path)
                    properties.append(SuiteResult.Property(name: "corpus_commit", value: commit ?? "unknown"))
                    let started = ContinuousClock.now
                    var suite: SuiteResult
                    switch item {
                    case .transcript(let loaded, _):
                        suite = TranscriptCheck.suite(loaded, properties: properties).drawing(
                            SequenceTimeline(transcript: loaded.transcript))
                    case .blocked(let entry): suite = TranscriptCheck.blockedSuite(entry, decisions: decisions, properties: properties)
                    }
                    suite.time = RunClock.seconds(since: started)
                    try reports.add(suite)
                }
            case .transcript(let path):
                let file: TranscriptFile
                do throws(CorpusError) { file = try transcriptFile(path, maxLine: maxLine) } catch { throw RunError.input(error) }
                if CaseSource.matches(file.caseID, filter) {
                    matched += 1
                    let started = ContinuousClock.now
                    var suite: SuiteResult
                    switch file {
                    case .kizunaSync(let loaded):
                        suite = TranscriptCheck.suite(loaded, properties: properties(target: "offline", corpus: nil))
                            .drawing(SequenceTimeline(transcript: loaded.transcript))
                    case .powerSync(let loaded):
                        suite = PowerSyncTranscriptCheck.suite(loaded, properties: properties(target: "offline", corpus: nil))
                    }
                    suite.time = RunClock.seconds(since: started)
                    try reports.add(suite)
                }
            case .recording(let path):
                guard CaseSource.matches((path as NSString).lastPathComponent, filter) else { continue }
                matched += 1
                let started = ContinuousClock.now
                var (suite, tally) = try checkRecording(path, keepPassing: keepPassing, maxLine: maxLine)
                suite.time = RunClock.seconds(since: started)
                try reports.add(suite, tally: tally)
            }
        }
        if matched == 0, let filter {
            throw RunError.usage("--filter '\(filter)' matches no case id or recording file name")
        }
        return try reports.finish(output: output)
    }

    static func checkRecording(_ path: String, keepPassing: Bool, maxLine: Int) throws(RunError) -> (SuiteResult, Tally) {
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
        let (suite, tally) = check.suite(file: path, tornLine: reader.tornLine, properties: properties(target: "offline", corpus: nil))
        return (suite.drawing(drawing.timeline), tally)
    }

    static func properties(target: String, corpus: String?) -> [SuiteResult.Property] {
        var properties = [
            .lane(.check), SuiteResult.Property(name: "target", value: target),
            SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
        ]
        if let corpus { properties.append(SuiteResult.Property(name: "corpus", value: corpus)) }
        return properties
    }
}
