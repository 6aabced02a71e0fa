import Corpus
import Foundation
import Harness
import KizunaWire
import PowerSyncWire
import ReferencePowerSync
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// Issue 38: a protocol is a profile, one conformer of `SyncProfile`, and every lane is written
/// once over it. For each profile, one case of its own plays through the same lane types — the
/// server lane, the client lane, the kill matrix, the storage-fault matrix, the offline check
/// and, for a recording of it, the diff — against the embedded reference service and the
/// reference client's driver process; each lane's suite of the case passes, or says why the lane
/// does not apply to it.
@Suite("Every profile plays one case in every lane through the same types")
struct ProfileLanesTests {
    /// A profile and one case of it: a corpus folder and a case-id glob, and a recording.
    struct Sample: Sendable, CustomStringConvertible {
        var profile: any SyncProfile.Type
        var folder: String
        var filter: String
        var driver: String
        var recording: @Sendable (URL) throws -> String
        var description: String { profile.name.rawValue }
    }

    /// The profiles Accord plays, each with its case.
    static let profiles: [Sample] = [
        Sample(
            profile: KizunaSync.self, folder: AccordBinary.sharedCorpus, filter: "push/005-atomic-batch-revert",
            driver: "'\(AccordBinary.path)' driver",
            recording: { _ in AccordBinary.packageRoot + "/Recordings/multi-user-sync.jsonl" }),
        Sample(
            profile: PowerSync.self, folder: AccordBinary.packageRoot + "/Conformance/powersync",
            filter: "powersync/008-checkpoints-wait-for-uploads-and-the-write-checkpoint",
            driver: "'\(AccordBinary.path)' driver --profile powersync", recording: { try PowerSyncDiffTests.write($0) }),
    ]

    static func options(_ paths: [String], filter: String?) -> RunOptions {
        var options = RunOptions(paths: paths)
        options.selection.filter = filter
        options.selection.jobs = 2
        return options
    }

    static let server: KizunaSync.TargetFactory = { () throws(TargetError) -> any KizunaSync.ServerTarget in
        do { return try ReferenceServer() } catch { throw TargetError.refused("\(error)") }
    }
    static let powerSync: PowerSync.TargetFactory = { () throws(TargetError) -> any PowerSync.ServerTarget in
        do { return PowerSync.EmbeddedTarget(service: try PowerSync.Service()) } catch { throw TargetError.refused("\(error)") }
    }

    /// Every lane's suites of the sample's case, by lane.
    static func everyLane(_ sample: Sample, scratch: URL) async throws -> [(LaneName, [SuiteResult])] {
        let paths = [sample.folder]
        let runner = LaneRunner(options(paths, filter: sample.filter))
        var server = ServerRun.Options(paths: paths, targetName: "embedded")
        server.run = options(paths, filter: sample.filter)
        var client = ClientRun.Options(paths: paths, clientName: sample.driver)
        client.run = options(paths, filter: sample.filter)
        let command = sample.driver
        let launch: KillLauncher = { (environment: [String: String]) throws(RunError) in
            try ProcessDriver(command: command, environment: environment)
        }
        let recording = try sample.recording(scratch)
        return [
            (.server, try await runner.collect(ServerRun(server, makeTarget: Self.server, makePowerSyncTarget: Self.powerSync)).suites),
            (.client, try await runner.collect(ClientRun(client, launch: { () throws(RunError) in try launch([:]) })).suites),
            (.clientKillMatrix, try await runner.collect(KillMatrixRun(options: client, launch: launch)).suites),
            (.clientStorageFaults, try await runner.collect(StorageFaultRun(options: client, launch: launch)).suites),
            (.check, try await runner.collect(CheckRun(options: CheckRun.Options(paths: paths, filter: sample.filter))).suites),
            (
                .diff,
                try await LaneRunner(options([recording], filter: nil)).collect(
                    DiffRun(
                        options: DiffRun.Options(paths: [recording], targetNames: ("embedded", "embedded")), makeA: Self.server,
                        makeB: Self.server,
                        powerSync: (Self.powerSync, Self.powerSync))
                ).suites
            ),
        ]
    }

    @Test(
        "the profiles are KizunaSync and PowerSync, each played by every lane: passed, or not applicable with the reason",
        arguments: profiles)
    func everyLanePlaysTheProfile(_ sample: Sample) async throws {
        let scratch = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let lanes = try await Self.everyLane(sample, scratch: scratch)
        // `accord explore` plays no corpus case: it generates its own (ExploreTests).
        let caseLanes = Set(LaneName.allCases).subtracting([.explore])
        #expect(Set(lanes.map(\.0)) == caseLanes, "every lane is played")
        for (lane, suites) in lanes {
            #expect(!suites.isEmpty, "\(sample) in \(lane): no suite")
            for suite in suites {
                #expect(
                    suite.properties.lane == lane,
                    "\(sample) in \(lane): \(suite.name) says lane \(String(describing: suite.properties.lane))")
                let profile = suite.properties.first { $0.name == "profile" }?.value ?? CorpusProfile.kizunaSync.rawValue
                #expect(profile == sample.profile.name.rawValue, "\(sample) in \(lane): \(suite.name) is of profile \(profile)")
                for result in suite.cases {
                    switch result.outcome {
                    case .passed: break
                    case .skipped(let reason):
                        // Not applicable to the lane, or a step another lane checks (the offline lane's client steps).
                        #expect(
                            reason.hasPrefix("not applicable") || reason.contains(" lane (accord run --"),
                            "\(sample) in \(lane): \(suite.name) › \(result.name) skipped: \(reason)")
                    case let other:
                        Issue.record("\(sample) in \(lane): \(suite.name) › \(result.name): \(other)")
                    }
                }
            }
        }
        let played = lanes.filter { _, suites in suites.contains { $0.cases.contains { $0.outcome == .passed } } }.map(\.0)
        #expect(
            Set(played) == caseLanes.subtracting(sample.profile == PowerSync.self ? [.clientStorageFaults] : []),
            "\(sample): \(played)")
    }
}
