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
        /// Corpus folders, transcript files or recordings.
        public var paths: [String]
        /// Where to write JUnit XML.
        public var junitPath: String?
        /// Where to write the JSON report.
        public var jsonPath: String?
        /// Where to write the HTML page (`--html`).
        public var htmlPath: String?
        /// A glob over case ids (e.g. "push/*").
        public var filter: String?
        /// Whether the console summary uses colour.
        public var color: Bool
        /// The longest recording line, and the largest transcript, read (`--max-line`).
        public var maxLine = RecordingReader.defaultMaxLine

        /// Makes options.
        /// - Parameters:
        ///   - paths: the inputs.
        ///   - junitPath: the JUnit path.
        ///   - jsonPath: the JSON report path.
        ///   - filter: the case-id glob.
        ///   - color: colour on the console.
        public init(paths: [String], junitPath: String? = nil, jsonPath: String? = nil, filter: String? = nil, color: Bool = false) {
            self.paths = paths
            self.junitPath = junitPath
            self.jsonPath = jsonPath
            self.filter = filter
            self.color = color
        }
    }

    /// The version reported in properties and headers: the VERSION file's, stamped at build time.
    public static let accordVersion = AccordVersion.number

    /// Runs the check.
    /// - Parameters:
    ///   - options: the options.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input or an unwritable report (exit 64).
    public static func run(_ options: Options, output: (String) -> Void) throws(RunError) -> Bool {
        if options.paths.isEmpty { throw RunError.usage("accord check needs at least one PATH (a corpus folder, transcript or recording)") }
        try checkReportPaths(junit: options.junitPath, json: options.jsonPath, inputs: options.paths, html: options.htmlPath)
        let inputs = try options.paths.map { path throws(RunError) in try CheckInput.classify(path) }
        var matched = 0
        var reports = try ReportFanout(
            junitPath: options.junitPath, jsonPath: options.jsonPath, name: "accord check", htmlPath: options.htmlPath)
        let keepPassing = options.junitPath != nil || options.jsonPath != nil || options.htmlPath != nil
        for input in inputs {
            switch input {
            case .corpus(let path):
                let corpus: Corpus
                do throws(CorpusError) { corpus = try Corpus(files: FolderFiles(root: path, limit: options.maxLine)) } catch {
                    throw RunError.input(error)
                }
                let decisions = CorpusProvenance.read(FolderFiles(root: path))
                let commit = CorpusProvenance.corpusCommit(FolderFiles(root: path))
                for item in corpus.cases where matches(item.id, options.filter) {
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
                    suite.time = seconds(since: started)
                    try reports.add(suite)
                }
            case .transcript(let path):
                let loaded: LoadedTranscript
                do throws(CorpusError) {
                    loaded = try LoadedTranscript(raw: try FileBytes.read(path, limit: options.maxLine), file: path)
                } catch {
                    throw RunError.input(error)
                }
                if matches(loaded.transcript.caseID, options.filter) {
                    matched += 1
                    let started = ContinuousClock.now
                    var suite = TranscriptCheck.suite(loaded, properties: properties(target: "offline", corpus: nil))
                        .drawing(SequenceTimeline(transcript: loaded.transcript))
                    suite.time = seconds(since: started)
                    try reports.add(suite)
                }
            case .recording(let path):
                guard matches((path as NSString).lastPathComponent, options.filter) else { continue }
                matched += 1
                let started = ContinuousClock.now
                var (suite, tally) = try checkRecording(path, keepPassing: keepPassing, maxLine: options.maxLine)
                suite.time = seconds(since: started)
                try reports.add(suite, tally: tally)
            }
        }
        if matched == 0, let filter = options.filter {
            throw RunError.usage("--filter '\(filter)' matches no case id or recording file name")
        }
        try reports.finish()
        output(reports.summary.render(color: options.color))
        return reports.summary.isPassing
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

    /// Refuses report paths that cannot be written or would clobber each other or an input.
    /// - Parameters:
    ///   - junit: the JUnit path.
    ///   - json: the JSON report path.
    ///   - inputs: the input paths.
    ///   - html: the HTML page path.
    /// - Throws: `RunError` before anything runs.
    static func checkReportPaths(junit: String?, json: String?, inputs: [String], html: String? = nil) throws(RunError) {
        if let junit, let json, FileSink.resolved(junit) == FileSink.resolved(json) {
            throw RunError.usage("--junit and --json name the same file \(junit); give each report its own path")
        }
        if let html, [junit, json].contains(where: { $0.map(FileSink.resolved) == FileSink.resolved(html) }) {
            throw RunError.usage("--html names the same file as another report (\(html)); give each report its own path")
        }
        let inputFiles = Set(inputs.map(FileSink.resolved))
        for path in [junit, json, html].compactMap({ $0 }) {
            try FileSink.checkWritable(path)
            if inputFiles.contains(FileSink.resolved(path)) {
                throw RunError.usage("report path \(path) is also an input; a report never overwrites what it checks")
            }
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func properties(target: String, corpus: String?) -> [SuiteResult.Property] {
        var properties = [
            SuiteResult.Property(name: "lane", value: "check"), SuiteResult.Property(name: "target", value: target),
            SuiteResult.Property(name: "accord_version", value: accordVersion),
        ]
        if let corpus { properties.append(SuiteResult.Property(name: "corpus", value: corpus)) }
        return properties
    }

    static func matches(_ id: String, _ filter: String?) -> Bool {
        guard let filter else { return true }
        return fnmatch(filter, id, 0) == 0
    }
}
