import Corpus
import Foundation
import Reports

/// What both live lanes share: load the cases, filter and shard them, play them a few at a
/// time, apply the known-failing list, and report.
struct LaneRun: Sendable {
    /// Plays one case and returns its suite.
    typealias Play = @Sendable (LoadedTranscript, [SuiteResult.Property]) async -> SuiteResult
    /// Replays one recording and returns its suite (with its sequence picture).
    typealias Replay = @Sendable (RecordingSource, [SuiteResult.Property]) async -> SuiteResult
    /// Plays one PowerSync case and returns its suite.
    typealias PowerSyncPlay = @Sendable (LoadedPowerSyncTranscript, [SuiteResult.Property]) async -> SuiteResult

    /// One unit of work: a transcript to play or a recording to replay.
    enum Work: Sendable {
        case transcript(LoadedTranscript)
        case recording(RecordingSource)
        case powerSync(LoadedPowerSyncTranscript)

        /// Whether it is played on the lane's KizunaSync target (or driver).
        var usesKizunaSyncTarget: Bool {
            switch self {
            case .transcript, .recording: true
            case .powerSync: false
            }
        }
    }

    /// The inputs, the selection, the reports and the console.
    var options: RunOptions
    /// The report's name, e.g. "accord run --server embedded".
    var reportName: String
    /// The properties every suite carries.
    var properties: [SuiteResult.Property]
    /// Checks the target before the first case (a setup error stops the run there).
    var preflight: @Sendable () async throws(RunError) -> Void = {}
    /// Checks the PowerSync target before the first case, when there are PowerSync cases.
    var powerSyncPreflight: @Sendable () async throws(RunError) -> Void = {}

    /// Runs the lane, reporting each case as it ends; returns true when nothing failed.
    func run(output: (String) -> Void, play: @escaping Play, replay: @escaping Replay, playPowerSync: PowerSyncPlay? = nil)
        async throws(RunError) -> Bool
    {
        try options.reports.check(inputs: options.inputs.paths)
        let (cases, ids) = try options.source.selected()
        let (runnable, blocked) = split(cases, playsPowerSync: playPowerSync != nil)
        // The preflight checks the KizunaSync target: a run of PowerSync cases alone does not use it.
        if runnable.contains(where: \.usesKizunaSyncTarget) || runnable.isEmpty { try await preflight() }
        if runnable.contains(where: { !$0.usesKizunaSyncTarget }) { try await powerSyncPreflight() }
        var report = try ReportSession(options.reports, name: reportName, console: options.console, total: runnable.count + blocked.count)
        let knownFailing = options.selection.knownFailing
        await CaseSchedule.stream(
            count: runnable.count, jobs: options.selection.jobs, unit(runnable, play: play, replay: replay, playPowerSync: playPowerSync)
        ) {
            index, suite in
            report.ended(index, knownFailing.apply(to: suite), output: output)
        }
        for suite in blocked { report.add(knownFailing.apply(to: suite), output: output) }
        if let unknown = knownFailing.unknownEntries(among: ids) { report.add(unknown, output: output) }
        return try report.finish(output: output)
    }

    /// Plays the cases quietly: their suites (known-failing applied, blocked entries last) and
    /// every case id of the inputs.
    func collect(play: @escaping Play, replay: @escaping Replay, playPowerSync: PowerSyncPlay? = nil) async throws(RunError) -> (
        [SuiteResult], Set<String>
    ) {
        let (cases, ids) = try options.source.selected()
        let (runnable, blocked) = split(cases, playsPowerSync: playPowerSync != nil)
        let results = await CaseSchedule.run(
            count: runnable.count, jobs: options.selection.jobs, unit(runnable, play: play, replay: replay, playPowerSync: playPowerSync))
        let knownFailing = options.selection.knownFailing
        return ((results + blocked).map { knownFailing.apply(to: $0) }, ids)
    }

    /// The work to play, and the blocked entries' suites.
    private func split(_ cases: [CaseSource.Case], playsPowerSync: Bool) -> ([Work], [SuiteResult]) {
        let properties = self.properties
        let blocked = cases.compactMap { item -> SuiteResult? in
            switch item.kind {
            case .blocked(let entry): TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties)
            case .unsupported(let file, let reason):
                CaseSource.unsupportedSuite(item.id, file: file, reason: reason, properties: properties)
            case .powerSync(let loaded) where !playsPowerSync:
                CaseSource.unsupportedSuite(item.id, file: loaded.file, reason: CaseSource.powerSyncReason, properties: properties)
            case .transcript, .recording, .powerSync: nil
            }
        }
        let runnable = cases.compactMap { item -> Work? in
            switch item.kind {
            case .transcript(let loaded): .transcript(loaded)
            case .recording(let source): .recording(source)
            case .powerSync(let loaded): playsPowerSync ? .powerSync(loaded) : nil
            case .blocked, .unsupported: nil
            }
        }
        return (runnable, blocked)
    }

    /// Plays one unit of work and times it.
    private func unit(_ runnable: [Work], play: @escaping Play, replay: @escaping Replay, playPowerSync: PowerSyncPlay?)
        -> @Sendable (Int) async -> SuiteResult
    {
        let properties = self.properties
        return { index in
            let started = ContinuousClock.now
            var suite: SuiteResult
            switch runnable[index] {
            case .transcript(let loaded): suite = await play(loaded, properties).drawing(transcript: loaded.transcript)
            case .recording(let source):
                suite = await replay(source, properties)
            case .powerSync(let loaded):
                suite =
                    await playPowerSync?(loaded, properties)
                    ?? CaseSource.unsupportedSuite(
                        loaded.transcript.caseID, file: loaded.file, reason: CaseSource.powerSyncReason, properties: properties)
            }
            suite.time = RunClock.seconds(since: started)
            return suite
        }
    }
}
