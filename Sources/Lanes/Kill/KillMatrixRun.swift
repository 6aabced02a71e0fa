import AccordDriver
import AccordVersion
import Corpus
import Foundation
import Harness
import KizunaWire
import PowerSyncWire
import Reports

/// `accord run --client CMD --kill-matrix PATH...`: every case played once per kill point it
/// reaches (docs/kill-matrix.md), one suite per case and point named `<case> @ <point>`.
/// The driver is asked hello first: a driver that is not found or does not speak the protocol is
/// a setup error, one that does not announce `kill-safe` has every case skipped saying so.
struct KillMatrixRun: Lane {
    /// What to run (the client lane's options).
    let options: ClientRun.Options
    /// Starts a driver with extra environment variables (a kill hook).
    let launch: KillLauncher

    var reportName: String { "accord run --client \(options.clientName) --kill-matrix" }

    /// Why the matrix is skipped for this driver (it does not announce `kill-safe`, or in a
    /// quiet collect it did not answer hello); nil when it is played. With `preflight`, a driver
    /// that does not answer hello is a setup error.
    func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) -> String? {
        let hello: HelloResult
        do throws(RunError) {
            hello = try await DriverPreflight.hello(
                { () throws(RunError) in try launch([:]) }, command: preflight ? options.clientName : "driver",
                timeout: options.requestTimeout)
        } catch {
            if preflight { throw error }
            return "the driver did not answer hello: \(error)"
        }
        return hello.capabilities.contains(DriverCapability.killSafe) ? nil : Self.notKillSafe
    }

    /// The skip reason of a driver that does not announce `kill-safe`.
    static let notKillSafe = "unsupported: the driver does not announce kill-safe"

    /// The properties of every suite of the matrix.
    var properties: [SuiteResult.Property] {
        Self.properties(.clientKillMatrix, target: options.clientName)
    }

    /// The (case, kill point, target step) units to play, then the suites of what is not played.
    func plan(_ cases: [CaseSource.Case], _ killSafe: String?) -> [LanePlan<KillUnit>] {
        let properties = self.properties
        var suites: [SuiteResult] = []
        var work: [KillUnit] = []
        for item in cases {
            switch item.kind {
            case .blocked(let entry):
                suites.append(TranscriptCheck.blockedSuite(entry, decisions: item.decisions, properties: properties))
            case .unsupported(let file, let reason):
                suites.append(Self.skipped("\(item.id) @ kill-matrix", caseID: item.id, file: file, properties, reason))
            case .powerSync(let loaded):
                // A recorded session is judged as the client lane plays it (its recorded
                // checkpoint requests the client's own).
                let play = loaded.clientPlay ?? loaded.transcript
                let profiled = properties + [PowerSync.profileProperty]
                if let reason = killSafe ?? PowerSync.clientInapplicable(play) {
                    suites.append(Self.skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, profiled, reason))
                } else {
                    for hook in PowerSync.killHooks(play) { work.append(.powerSync(loaded, hook)) }
                    if let reason = PowerSync.unplayableAfterApply(play) {
                        let name = "\(item.id) @ \(KillHook.afterCheckpointApplied.rawValue)"
                        suites.append(Self.skipped(name, caseID: item.id, file: loaded.file, profiled, reason))
                    }
                }
            case .recording(let source):
                suites.append(
                    Self.skipped(
                        "\(item.id) @ kill-matrix", caseID: "recording/\(item.id)", file: source.file, properties,
                        "recordings are not played under the kill matrix"))
            case .transcript(let loaded):
                if let reason = killSafe {
                    suites.append(Self.skipped("\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, reason))
                } else if let reason = ClientCasePlan(loaded.transcript).inapplicable {
                    suites.append(
                        Self.skipped(
                            "\(item.id) @ kill-matrix", caseID: item.id, file: loaded.file, properties, "not applicable: \(reason)"))
                } else {
                    for point in KillPoint.allCases {
                        if let target = point.target(in: loaded.transcript) { work.append(.kizunaSync(loaded, point, target)) }
                    }
                }
            }
        }
        return work.map { .play($0) } + suites.map { .notPlayed($0) }
    }

    /// Plays one unit: the case with the driver killed at the point, then restarted.
    func play(_ unit: KillUnit, _: String?) async -> SuiteResult {
        let properties = self.properties
        let launch = self.launch
        switch unit {
        case .powerSync(let loaded, let hook):
            let environment = [KillHook.environmentVariable: hook.rawValue]
            var suite = await ClientLane<PowerSync>(requestTimeout: options.requestTimeout).run(
                loaded, launch: { () throws(RunError) in try launch(environment) }, properties: properties,
                variant: (hook, { () throws(RunError) in try launch([:]) }))
            suite.properties.append(SuiteResult.Property(name: "kill_point", value: hook.rawValue))
            return suite
        case .kizunaSync(let loaded, let point, let target):
            let hook = point.driverHook.map { [KillHook.environmentVariable: $0.rawValue] } ?? [:]
            let kill = KillState(point: point, target: target, relaunch: { () throws(RunError) in try launch([:]) }, hooked: !hook.isEmpty)
            var suite = await ClientLane<KizunaSync>(requestTimeout: options.requestTimeout).run(
                loaded, launch: { () throws(RunError) in try launch(hook) }, properties: properties, variant: KillPlay(kill))
            suite.properties.append(SuiteResult.Property(name: "kill_point", value: point.rawValue))
            return suite.drawing {
                SequenceTimeline(transcript: loaded.transcript, observed: $0).killing(
                    at: point.rawValue, step: target, beforeAnswer: point == .afterPushSent)
            }
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
}

/// One unit of the kill matrix: a KizunaSync case killed at a point (and its target step), or a
/// PowerSync case whose driver dies at a seam of the reference PowerSync client.
enum KillUnit: Sendable {
    case kizunaSync(LoadedTranscript, KillPoint, Int)
    case powerSync(PowerSync.LoadedTranscript, KillHook)
}
