import Corpus
import Foundation
import Reports

/// What both live lanes share: load the cases, filter and shard them, play them a few at a
/// time, apply the known-failing list, and report.
struct LaneRun: Sendable {
    /// Plays one case and returns its suite.
    typealias Play = @Sendable (LoadedTranscript, [SuiteResult.Property]) async -> SuiteResult
    /// Replays one recording (its contents and path) and returns its suite.
    typealias Replay = @Sendable (RecordingContents, String, [SuiteResult.Property]) async -> SuiteResult

    /// One unit of work: a transcript to play or a recording to replay.
    enum Work: Sendable {
        case transcript(LoadedTranscript)
        case recording(RecordingContents, file: String)
    }

    var paths: [String]
    var filter: String?
    var shard: (index: Int, count: Int)
    var jobs: Int
    var knownFailing: Expectations
    var junitPath: String?
    var jsonPath: String?
    /// Where to write the HTML page (`--html`).
    var htmlPath: String?
    var color: Bool
    /// The longest recording line, and the largest transcript, read.
    var maxLine = RecordingReader.defaultMaxLine
    /// The report's name, e.g. "accord run --server embedded".
    var reportName: String
    /// The properties every suite carries.
    var properties: [SuiteResult.Property]

    /// Runs the lane; returns true when nothing failed.
    func run(output: (String) -> Void, play: @escaping Play, replay: @escaping Replay) async throws(RunError) -> Bool {
        try CheckRun.checkReportPaths(junit: junitPath, json: jsonPath, inputs: paths, html: htmlPath)
        let (suites, ids) = try await collect(play: play, replay: replay)
        var reports = try ReportFanout(junitPath: junitPath, jsonPath: jsonPath, name: reportName, htmlPath: htmlPath)
        for suite in suites { try reports.add(suite) }
        if let unknown = knownFailing.unknownEntries(among: ids) { try reports.add(unknown) }
        try reports.finish()
        output(reports.summary.render(color: color))
        return reports.summary.isPassing
    }

    /// Plays the cases quietly: their suites (known-failing applied, blocked entries last) and
    /// every case id of the inputs.
    func collect(play: @escaping Play, replay: @escaping Replay) async throws(RunError) -> ([SuiteResult], Set<String>) {
        let all = try ServerRun.loadCases(paths, maxLine: maxLine)
        let filtered = all.filter { CheckRun.matches($0.id, filter) }
        if filtered.isEmpty, let filter { throw RunError.usage("--filter '\(filter)' matches no case id") }
        let cases = filtered.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        let properties = self.properties
        let blocked = cases.compactMap { item -> SuiteResult? in
            guard case .blocked(let entry) = item.kind else { return nil }
            return TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties)
        }
        let runnable = cases.compactMap { item -> Work? in
            switch item.kind {
            case .transcript(let loaded): .transcript(loaded)
            case .recording(let contents, let file): .recording(contents, file: file)
            case .blocked: nil
            }
        }
        let results = await CaseSchedule.run(count: runnable.count, jobs: jobs) { index in
            let started = ContinuousClock.now
            var suite: SuiteResult
            switch runnable[index] {
            case .transcript(let loaded): suite = await play(loaded, properties).drawing(SequenceTimeline(transcript: loaded.transcript))
            case .recording(let contents, let file):
                suite = await replay(contents, file, properties).drawing(RecordingTimeline(exchanges: contents.exchanges).timeline)
            }
            suite.time = CheckRun.seconds(since: started)
            return suite
        }
        return ((results + blocked).map { knownFailing.apply(to: $0) }, Set(all.map(\.id)))
    }
}
