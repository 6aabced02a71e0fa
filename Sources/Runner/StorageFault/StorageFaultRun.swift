import AccordDriver
import AccordVersion
import Corpus
import Foundation
import Reports

/// `accord run --client CMD --storage-faults PATH...`: every case played once per storage-fault
/// point it reaches and per variant (docs/storage-faults.md), the driver running under libfiu; one
/// suite per case, point and variant, named `<case> @ <point> <errno> <continuation>`.
public enum StorageFaultRun {
    /// One case, point, variant and target step to play.
    struct Unit: Sendable {
        var loaded: LoadedTranscript
        var point: StorageFaultPoint
        var variant: StorageFaultVariant
        var target: Int
    }

    /// Runs the matrix: libfiu is checked first (one line and the setup exit when it cannot be
    /// loaded), then the driver is asked hello, then each played case is reported as it ends.
    /// - Parameters:
    ///   - options: what to run (the client lane's options; the known-failing list does not apply).
    ///   - launch: starts a driver with extra environment variables (libfiu's preloads).
    ///   - output: receives the console text.
    /// - Returns: true when nothing failed.
    /// - Throws: `RunError` for bad input, an unwritable report, or a setup problem (libfiu, the driver).
    public static func run(_ options: ClientRun.Options, launch: @escaping KillLauncher, output: (String) -> Void) async throws(RunError)
        -> Bool
    {
        try options.run.reports.check(inputs: options.run.inputs.paths)
        let cases = try options.run.source.selected().cases
        let folder = try controlFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let failures = try await StorageFailures(folder: folder)
        _ = try await DriverPreflight.hello(
            { () throws(RunError) in try launch(failures.environment) }, command: options.clientName, timeout: options.requestTimeout)
        let properties = properties(options)
        let (units, skipped) = plan(cases, properties: properties)
        var report = try ReportSession(
            options.run.reports, name: "accord run --client \(options.clientName) --storage-faults", console: options.run.console,
            total: units.count + skipped.count)
        await CaseSchedule.stream(
            count: units.count, jobs: options.run.selection.jobs, play(units, options, properties, failures, launch: launch)
        ) { index, suite in
            report.ended(index, suite, output: output)
        }
        for suite in skipped { report.add(suite, output: output) }
        return try report.finish(output: output)
    }

    /// Plays the matrix quietly and returns its suites (played ones first, then skipped ones).
    static func collect(_ options: ClientRun.Options, launch: @escaping KillLauncher) async throws(RunError) -> [SuiteResult] {
        let cases = try options.run.source.selected().cases
        let folder = try controlFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let failures = try await StorageFailures(folder: folder)
        let properties = properties(options)
        let (units, skipped) = plan(cases, properties: properties)
        return await CaseSchedule.run(
            count: units.count, jobs: options.run.selection.jobs, play(units, options, properties, failures, launch: launch)) + skipped
    }

    /// A folder of the run's own for libfiu's control pipes.
    private static func controlFolder() throws(RunError) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-fiu-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RunError.output(folder, "\(error)")
        }
        return folder
    }

    /// The properties of every suite of the matrix.
    private static func properties(_ options: ClientRun.Options) -> [SuiteResult.Property] {
        [
            .lane(.clientStorageFaults),
            SuiteResult.Property(name: "target", value: options.clientName),
            SuiteResult.Property(name: "accord_version", value: AccordVersion.number),
        ]
    }

    /// The units to play, and the suites of what is not played.
    private static func plan(_ cases: [CaseSource.Case], properties: [SuiteResult.Property]) -> ([Unit], [SuiteResult]) {
        var suites: [SuiteResult] = []
        var work: [Unit] = []
        for item in cases {
            switch item.kind {
            case .blocked(let entry):
                suites.append(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties))
            case .recording(let source):
                let file = source.file
                suites.append(
                    skipped(
                        item.id, caseID: "recording/\(item.id)", file: file, properties, "recordings are not played under storage faults"))
            case .unsupported(let file, let reason):
                suites.append(skipped(item.id, caseID: item.id, file: file, properties, reason))
            case .powerSync(let loaded):
                suites.append(
                    skipped(
                        item.id, caseID: item.id, file: loaded.file, properties,
                        "not applicable: the storage-fault matrix plays KizunaSync cases; PowerSync cases are played by the client lane and the kill matrix"
                    ))
            case .transcript(let loaded):
                if let reason = ClientCasePlan(loaded.transcript).inapplicable {
                    suites.append(skipped(item.id, caseID: item.id, file: loaded.file, properties, "not applicable: \(reason)"))
                    continue
                }
                for point in StorageFaultPoint.allCases {
                    guard let target = point.target(in: loaded.transcript) else { continue }
                    for variant in StorageFaultVariant.all {
                        work.append(Unit(loaded: loaded, point: point, variant: variant, target: target))
                    }
                }
            }
        }
        return (work, suites)
    }

    /// Plays one unit: the case with the point's command run under failing writes.
    private static func play(
        _ units: [Unit], _ options: ClientRun.Options, _ properties: [SuiteResult.Property], _ failures: StorageFailures,
        launch: @escaping KillLauncher
    ) -> @Sendable (Int) async -> SuiteResult {
        let lane = ClientLane(requestTimeout: options.requestTimeout)
        let environment = failures.environment
        return { index in
            let unit = units[index]
            let started = ContinuousClock.now
            let relaunch: @Sendable () throws(RunError) -> any DriverChannel = { () throws(RunError) in try launch(environment) }
            let state = StorageFaultState(
                point: unit.point, variant: unit.variant, target: unit.target, failures: failures, relaunch: relaunch)
            var suite = await lane.run(unit.loaded, launch: relaunch, properties: properties, wrapper: StorageFaultPlay(state))
            suite.properties += [
                SuiteResult.Property(name: "storage_fault_point", value: unit.point.rawValue),
                SuiteResult.Property(name: "storage_fault_errno", value: unit.variant.errno.rawValue.uppercased()),
                SuiteResult.Property(name: "storage_fault_continuation", value: unit.variant.continuation.rawValue),
            ]
            suite.time = RunClock.seconds(since: started)
            return suite
        }
    }

    /// A suite of one skipped test case, named after the case (`kizuna.storage.<case id>`).
    static func skipped(_ id: String, caseID: String, file: String?, _ properties: [SuiteResult.Property], _ reason: String)
        -> SuiteResult
    {
        SuiteResult(
            name: "\(id) @ storage-faults", file: file, properties: properties,
            cases: [
                CaseResult(
                    name: "storage faults", classname: CaseResult.classname(lane: "storage", caseID: caseID), outcome: .skipped(reason))
            ])
    }
}
