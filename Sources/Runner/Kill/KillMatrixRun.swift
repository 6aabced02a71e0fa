import AccordDriver
import AccordVersion
import Corpus
import Foundation
import Reports

/// `accord run --client CMD --kill-matrix PATH...`: every case played once per kill point it
/// reaches (docs/kill-matrix.md), one suite per case and point named `<case> @ <point>`.
public enum KillMatrixRun {
    /// Runs the matrix: the driver is asked hello first (a driver that is not found or does not
    /// speak the protocol is a setup error), then each played case is reported as it ends.
    /// - Parameters:
    ///   - options: what to run (the client lane's options; the known-failing list does not apply).
    ///   - launch: starts a driver with extra environment variables.
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input, an unwritable report, or a setup problem.
    public static func run(_ options: ClientRun.Options, launch: @escaping KillLauncher, output: (String) -> Void) async throws(RunError)
        -> Bool
    {
        try options.run.reports.check(inputs: options.run.inputs.paths)
        let cases = try selected(options)
        let hello = try await DriverPreflight.hello(
            { () throws(RunError) in try launch([:]) }, command: options.clientName, timeout: options.requestTimeout)
        let killSafe = hello.capabilities.contains(DriverCapability.killSafe) ? nil : notKillSafe
        let (units, skipped) = plan(cases, killSafe: killSafe)
        var report = try ReportSession(
            options.run.reports, name: "accord run --client \(options.clientName) --kill-matrix", console: options.run.console,
            total: units.count + skipped.count)
        await CaseSchedule.stream(count: units.count, jobs: options.run.selection.jobs, play(units, options, launch: launch)) {
            index, suite in
            report.ended(index, suite, output: output)
        }
        for suite in skipped { report.add(suite, output: output) }
        return try report.finish(output: output)
    }

    /// Plays the matrix quietly and returns its suites (played ones first, then skipped ones).
    static func collect(_ options: ClientRun.Options, launch: @escaping KillLauncher) async throws(RunError) -> [SuiteResult] {
        let cases = try selected(options)
        let killSafe = await probe(launch, timeout: options.requestTimeout)
        let (units, skipped) = plan(cases, killSafe: killSafe)
        return await CaseSchedule.run(count: units.count, jobs: options.run.selection.jobs, play(units, options, launch: launch)) + skipped
    }

    /// The skip reason of a driver that does not announce `kill-safe`.
    static let notKillSafe = "unsupported: the driver does not announce kill-safe"

    /// The properties of every suite of the matrix.
    private static func properties(_ options: ClientRun.Options) -> [SuiteResult.Property] {
        [
            .lane(.clientKillMatrix),
            SuiteResult.Property(name: "target", value: options.clientName),
            SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
        ]
    }

    /// The cases of this shard after the filter.
    private static func selected(_ options: ClientRun.Options) throws(RunError) -> [(CaseSource.Case, [SuiteResult.Property])] {
        let properties = properties(options)
        return try options.run.source.selected().cases.map { ($0, properties) }
    }

    /// The (case, kill point, target step) units to play, and the suites of what is not played.
    private static func plan(_ cases: [(CaseSource.Case, [SuiteResult.Property])], killSafe: String?) -> ([KillUnit], [SuiteResult]) {
        var suites: [SuiteResult] = []
        var work: [KillUnit] = []
        for (item, properties) in cases {
            switch item.kind {
            case .blocked(let entry):
                suites.append(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties))
            case .unsupported(let file, let reason):
                suites.append(skipped("\(item.id) @ kill-matrix", caseID: item.id, file: file, properties, reason))
            case .powerSync(let loaded):
                // A recorded session is judged as the client lane plays it (its recorded
                // checkpoint requests the client's own).
                let play = loaded.clientPlay ?? loaded.transcript
                if let reason = killSafe ?? PowerSyncClientLane.inapplicable(play) {
                    suites.append(skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, reason))
                } else {
                    for hook in PowerSyncClientLane.killHooks(play) { work.append(.powerSync(loaded, hook, properties)) }
                    if let reason = PowerSyncClientLane.unplayableAfterApply(play) {
                        let name = "\(item.id) @ \(KillHook.afterCheckpointApplied.rawValue)"
                        suites.append(skipped(name, caseID: item.id, file: loaded.file, properties, reason))
                    }
                }
            case .recording(let source):
                let file = source.file
                suites.append(
                    skipped(
                        "\(item.id) @ kill-matrix", caseID: "recording/\(item.id)", file: file, properties,
                        "recordings are not played under the kill matrix"))
            case .transcript(let loaded):
                if let reason = killSafe {
                    suites.append(skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, reason))
                } else if let reason = ClientCasePlan(loaded.transcript).inapplicable {
                    suites.append(
                        skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, "not applicable: \(reason)"))
                } else {
                    for point in KillPoint.allCases {
                        if let target = point.target(in: loaded.transcript) { work.append(.kizunaSync(loaded, point, target, properties)) }
                    }
                }
            }
        }
        return (work, suites)
    }

    /// Plays one unit: the case with the driver killed at the point, then restarted.
    private static func play(_ units: [KillUnit], _ options: ClientRun.Options, launch: @escaping KillLauncher)
        -> @Sendable (Int) async
        -> SuiteResult
    {
        let lane = ClientLane(requestTimeout: options.requestTimeout)
        let powerSyncLane = PowerSyncClientLane(requestTimeout: options.requestTimeout)
        return { index in
            let started = ContinuousClock.now
            let (loaded, point, target, properties): (LoadedTranscript, KillPoint, Int, [SuiteResult.Property])
            switch units[index] {
            case .kizunaSync(let kizunaSync, let kizunaPoint, let kizunaTarget, let kizunaProperties):
                (loaded, point, target, properties) = (kizunaSync, kizunaPoint, kizunaTarget, kizunaProperties)
            case .powerSync(let powerSync, let hook, let powerSyncProperties):
                let environment = [KillHook.environmentVariable: hook.rawValue]
                var suite = await powerSyncLane.run(
                    powerSync, launch: { () throws(RunError) in try launch(environment) }, properties: powerSyncProperties,
                    kill: (hook, { () throws(RunError) in try launch([:]) }))
                suite.properties.append(SuiteResult.Property(name: "kill_point", value: hook.rawValue))
                suite.time = RunClock.seconds(since: started)
                return suite
            }
            let hook = point.driverHook.map { [KillHook.environmentVariable: $0.rawValue] } ?? [:]
            let kill = KillState(point: point, target: target, relaunch: { () throws(RunError) in try launch([:]) }, hooked: !hook.isEmpty)
            var suite = await lane.run(
                loaded, launch: { () throws(RunError) in try launch(hook) }, properties: properties, wrapper: KillPlay(kill))
            suite.properties.append(SuiteResult.Property(name: "kill_point", value: point.rawValue))
            suite = suite.drawing {
                SequenceTimeline(transcript: loaded.transcript, observed: $0).killing(
                    at: point.rawValue, step: target, beforeAnswer: point == .afterPushSent)
            }
            suite.time = RunClock.seconds(since: started)
            return suite
        }
    }

    /// A suite of one skipped test case, named after the case (`kizuna.kill.<case id>`).
    static func skipped(_ name: String, caseID: String, file: String?, _ properties: [SuiteResult.Property], _ reason: String)
        -> SuiteResult
    {
        SuiteResult(
            name: name, file: file, properties: properties,
            cases: [
                CaseResult(name: "kill matrix", classname: CaseResult.classname(lane: "kill", caseID: caseID), outcome: .skipped(reason))
            ])
    }

    /// Starts one driver and asks hello: nil when it announces `kill-safe`, else why the matrix is skipped.
    static func probe(_ launch: @escaping KillLauncher, timeout: Duration) async -> String? {
        do throws(RunError) {
            let hello = try await DriverPreflight.hello({ () throws(RunError) in try launch([:]) }, command: "driver", timeout: timeout)
            return hello.capabilities.contains(DriverCapability.killSafe) ? nil : notKillSafe
        } catch {
            return "the driver did not answer hello: \(error)"
        }
    }
}

/// One unit of the kill matrix: a KizunaSync case killed at a point (and its target step), or a
/// PowerSync case whose driver dies at a seam of the reference PowerSync client.
enum KillUnit: Sendable {
    case kizunaSync(LoadedTranscript, KillPoint, Int, [SuiteResult.Property])
    case powerSync(LoadedPowerSyncTranscript, KillHook, [SuiteResult.Property])
}
