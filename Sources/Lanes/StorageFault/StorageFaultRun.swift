import AccordDriver
import AccordVersion
import Corpus
import Foundation
import Harness
import KizunaWire
import PowerSyncWire
import Reports

/// `accord run --client CMD --storage-faults PATH...`: every case played once per storage-fault
/// point it reaches and per variant (docs/storage-faults.md), the driver running under libfiu; one
/// suite per case, point and variant, named `<case> @ <point> <errno> <continuation>`. libfiu is
/// checked first (one line and the setup exit when it cannot be loaded), then the driver is asked
/// hello under it.
struct StorageFaultRun: Lane {
    /// One case, point, variant and target step to play.
    struct Unit: Sendable {
        var loaded: LoadedTranscript
        var point: StorageFaultPoint
        var variant: StorageFaultVariant
        var target: Int
    }

    /// What to run (the client lane's options).
    let options: ClientRun.Options
    /// Starts a driver under libfiu's preloads.
    let launch: KillLauncher

    var reportName: String { "accord run --client \(options.clientName) --storage-faults" }

    /// Finds and loads libfiu (always: a matrix without it cannot play), then with `preflight`
    /// asks the driver hello under it.
    func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) -> StorageFailures {
        let failures = try await StorageFailures()
        guard preflight else { return failures }
        do throws(RunError) {
            let launch = self.launch
            _ = try await DriverPreflight.hello(
                { () throws(RunError) in try launch(failures.environment) }, command: options.clientName, timeout: options.requestTimeout)
        } catch {
            failures.remove()
            throw error
        }
        return failures
    }

    func release(_ failures: StorageFailures) {
        failures.remove()
    }

    /// The properties of every suite of the matrix.
    var properties: [SuiteResult.Property] {
        Self.properties(.clientStorageFaults, target: options.clientName)
    }

    /// The units to play, then the suites of what is not played.
    func plan(_ cases: [CaseSource.Case], _: StorageFailures) -> [LanePlan<Unit>] {
        let properties = self.properties
        var suites: [SuiteResult] = []
        var work: [Unit] = []
        for item in cases {
            switch item.kind {
            case .blocked(let entry):
                suites.append(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties))
            case .recording(let source):
                let file = source.file
                suites.append(
                    Self.skipped(
                        item.id, caseID: "recording/\(item.id)", file: file, properties, "recordings are not played under storage faults"))
            case .unsupported(let file, let reason):
                suites.append(Self.skipped(item.id, caseID: item.id, file: file, properties, reason))
            case .powerSync(let loaded):
                suites.append(
                    Self.skipped(
                        item.id, caseID: item.id, file: loaded.file, properties + [PowerSync.profileProperty],
                        "not applicable: the storage-fault matrix plays KizunaSync cases; PowerSync cases are played by the client lane and the kill matrix"
                    ))
            case .transcript(let loaded):
                if let reason = ClientCasePlan(loaded.transcript).inapplicable {
                    suites.append(Self.skipped(item.id, caseID: item.id, file: loaded.file, properties, "not applicable: \(reason)"))
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
        return work.map { .play($0) } + suites.map { .notPlayed($0) }
    }

    /// Plays one unit: the case with the point's command run under failing writes.
    func play(_ unit: Unit, _ failures: StorageFailures) async -> SuiteResult {
        let launch = self.launch
        let environment = failures.environment
        let relaunch: @Sendable () throws(RunError) -> any DriverChannel = { () throws(RunError) in try launch(environment) }
        let state = StorageFaultState(
            point: unit.point, variant: unit.variant, target: unit.target, failures: failures, relaunch: relaunch)
        var suite = await ClientLane<KizunaSync>(requestTimeout: options.requestTimeout).run(
            unit.loaded, launch: relaunch, properties: properties, variant: StorageFaultPlay(state))
        suite.properties += [
            SuiteResult.Property(name: "storage_fault_point", value: unit.point.rawValue),
            SuiteResult.Property(name: "storage_fault_errno", value: unit.variant.errno.rawValue.uppercased()),
            SuiteResult.Property(name: "storage_fault_continuation", value: unit.variant.continuation.rawValue),
        ]
        return suite
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
