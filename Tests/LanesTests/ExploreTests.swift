import Corpus
import Explore
import Foundation
import Harness
import JSON
import KizunaWire
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// Issue 39: `accord explore` generates scenarios, plays them against a server, judges them by
/// three oracles and shrinks what fails to a transcript.
@Suite("accord explore: generated scenarios, oracles and shrinking", .serialized)
struct ExploreTests {
    static func reference(faults: Set<ServerFault> = []) -> KizunaSync.TargetFactory {
        { () throws(TargetError) -> any KizunaSync.ServerTarget in
            do { return try ReferenceServer(faults: faults) } catch { throw TargetError.refused("\(error)") }
        }
    }

    static let model: ExploreRun.ReferenceFactory = { (noOpWrites) throws(TargetError) -> any KizunaSync.ServerTarget in
        do { return try ReferenceServer(noOpWrites: noOpWrites) } catch { throw TargetError.refused("\(error)") }
    }

    static func run(budget: Int, jobs: Int, findings: String, faults: Set<ServerFault> = []) async throws -> [SuiteResult] {
        var options = ExploreRun.Options(targetName: "embedded", seed: 1, budget: .scenarios(budget), findings: findings)
        options.run.selection.jobs = jobs
        let lane = ExploreRun(options, makeTarget: reference(faults: faults), makeReference: model)
        return try await LaneRunner(options.run).collect(lane).suites
    }

    /// One user with two devices: device 1 inserts a row with a counter, increments it and
    /// pushes; device 2 pulls; both settle; the user's observer pulls.
    static var twoDevices: KizunaSync.ExploreScenario {
        let user = ExploreIDs.user(0)
        let row = ExploreIDs.row(table: 0, 0)
        let insert = Mutation(
            mutationID: ExploreIDs.mutation(0), table: "todos", pk: row, op: .insert,
            columns: ["owner_id": .string(user), "title": "alpha", "likes": 1])
        let increment = Mutation(
            mutationID: ExploreIDs.mutation(1), table: "todos", pk: row, op: .update, columns: ["done": true],
            transforms: [("likes", .increment(by: 2))])
        return KizunaSync.ExploreScenario(
            seed: 0, index: 0, users: [user],
            devices: [
                .init(client: ExploreIDs.device(0), user: 0, schemaVersion: 1),
                .init(client: ExploreIDs.device(1), user: 0, schemaVersion: 1),
            ],
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), tables: ["todos"],
            actions: [
                .write(device: 0, insert), .write(device: 0, increment), .push(device: 0, count: 2, atomic: false, answerLost: true),
                .pull(device: 1, limit: 1), .settlePush(device: 0), .settlePush(device: 1), .settlePull(device: 0, limit: nil),
                .settlePull(device: 1, limit: nil), .observe(user: 0, limit: nil),
            ])
    }

    static func realized(_ scenario: KizunaSync.ExploreScenario) async throws -> KizunaSync.ExploreTranscript {
        try await KizunaSync.ExploreRealizer.realize(scenario, caseID: "lifecycle/000-explore-test", on: try reference()())
    }

    @Test("scenario i of a seed is the same whatever ran before it, and another i or seed gives another scenario")
    func deterministic() {
        let first = KizunaSync.ExploreGenerator.scenario(index: 7, seed: 42)
        #expect(first == KizunaSync.ExploreGenerator.scenario(index: 7, seed: 42))
        #expect(first != KizunaSync.ExploreGenerator.scenario(index: 8, seed: 42))
        #expect(first != KizunaSync.ExploreGenerator.scenario(index: 7, seed: 43))
        let kinds = Set(
            (0..<200).flatMap { KizunaSync.ExploreGenerator.scenario(index: $0, seed: 1).actions }.map { action -> String in
                switch action {
                case .write(_, let mutation): "write \(mutation.op.rawValue)"
                case .push(_, _, let atomic, let lost): lost ? "push lost" : atomic ? "push atomic" : "push"
                case .pull: "pull"
                case .server(_, let held): held > 0 ? "server held" : "server"
                case .reap: "reap"
                case .settlePush, .settlePull, .observe: "closing"
                case .atomicWrites, .brokenAnswer, .failedPull: "a driven client's"
                }
            })
        #expect(
            kinds == [
                "write insert", "write update", "write delete", "push", "push atomic", "push lost", "pull", "server", "server held",
                "reap", "closing",
            ])
    }

    @Test("a realized scenario is a transcript the corpus grammar reads, its device 1's writes as local steps and other devices as callers")
    func realizes() async throws {
        let transcript = try await Self.realized(Self.twoDevices)
        let loaded = try LoadedTranscript(raw: CanonicalJSON.render(transcript.json), file: "realized.json")
        #expect(loaded.transcript.steps.count == transcript.stepCount)
        let labels = loaded.transcript.steps.map(\.label)
        #expect(labels.prefix(3) == ["local", "local", "fault drop-ack"])
        // The batch whose answer was lost is sent again, as is, by the closing push.
        guard case .fault(let lost) = loaded.transcript.steps[2].action, case .rpc(let resend) = loaded.transcript.steps[4].action
        else {
            Issue.record("expected a drop-ack then a resend, got \(labels)")
            return
        }
        #expect(resend.request == lost.request)
        guard case .rpc(let pull) = loaded.transcript.steps[3].action else { return }
        #expect(pull.caller?.client == ExploreIDs.device(1))
    }

    @Test("the convergence oracle passes the reference's own answers and names the device, the counter or the write that went wrong")
    func convergenceOracle() async throws {
        let scenario = Self.twoDevices
        let transcript = try await Self.realized(scenario)
        let oracle = KizunaSync.ConvergenceOracle(scenario: scenario, transcript: transcript)
        let golden = transcript.goldenAnswers
        let clean = oracle.judge(answers: golden)
        #expect(clean.findings.isEmpty)
        #expect(clean.devices == 2)

        let steps = transcript.json["steps"]?.arrayValue ?? []
        let observerStep = try #require(transcript.callers.first { $0.value == .observer(user: 0) }?.key)
        let devicePulls = transcript.callers.filter { $0.value == .device(1) && steps[$0.key - 1]["rpc"]?.stringValue == "pull" }
        let firstDevicePull = try #require(devicePulls.keys.min())
        let lastDevicePull = try #require(devicePulls.keys.max())
        #expect(firstDevicePull < lastDevicePull)

        // Device 2's first page loses its row: after pulling to completion it does not hold what
        // the observer holds, and the finding names its last pull.
        var dropped = golden
        dropped[firstDevicePull] = RPCReply(
            status: 200, body: try #require(golden[firstDevicePull]?.body).replacing(at: JSONPointer(tokens: ["rows"]), with: []))
        let converge = oracle.judge(answers: dropped).findings
        #expect(converge.map(\.rule).contains("EX-CONVERGE"))
        #expect(converge.first { $0.rule == "EX-CONVERGE" }?.step == lastDevicePull)

        // The observer sees the counter incremented twice: the increment was applied twice.
        var twice = golden
        let observed = try #require(golden[observerStep]?.body)
        twice[observerStep] = RPCReply(
            status: 200, body: observed.replacing(at: JSONPointer(tokens: ["rows", "0", "row", "likes"]), with: 5))
        let exactlyOnce = oracle.judge(answers: twice).findings
        #expect(exactlyOnce.map(\.rule).contains("EX-EXACTLY-ONCE"))
        #expect(exactlyOnce.first { $0.rule == "EX-EXACTLY-ONCE" }?.message.contains("likes should be 3") == true)

        // The observer sees the row without the `done` the applied update wrote.
        var lost = golden
        lost[observerStep] = RPCReply(
            status: 200, body: observed.replacing(at: JSONPointer(tokens: ["rows", "0", "row", "done"]), with: false))
        #expect(oracle.judge(answers: lost).findings.map(\.rule).contains("EX-ACKED-WRITE"))
    }

    @Test("against the embedded reference, generated scenarios raise nothing, and each oracle says what it judged")
    func referenceIsClean() async throws {
        try await withTemporaryFolderAsync { folder in
            let suites = try await Self.run(budget: 120, jobs: 2, findings: folder)
            #expect(suites.count == 2)
            let cases = suites.flatMap(\.cases)
            #expect(cases.map(\.name).sorted() == ["convergence", "convergence", "differential", "differential", "rules", "rules"])
            #expect(cases.allSatisfy { $0.outcome == .passed })
            let notes = cases.compactMap(\.note).joined(separator: "\n")
            #expect(notes.contains("over 60 scenarios that raised nothing"))
            #expect(!exists(folder + "/cases"))
        }
    }

    @Test(
        "every seeded server fault of the self-test is found from seed 1 within 300 scenarios and shrunk to at most 10 steps",
        arguments: ServerFault.allCases)
    func seededFault(_ fault: ServerFault) async throws {
        try await withTemporaryFolderAsync { folder in
            let suites = try await Self.run(budget: 300, jobs: 1, findings: folder, faults: [fault])
            let finding = try #require(suites.flatMap(\.cases).first { $0.name.hasPrefix("scenario ") })
            guard case .failed(let failures) = finding.outcome else {
                Issue.record("\(fault): expected a failed finding, got \(finding.outcome)")
                return
            }
            #expect(!failures.isEmpty)
            let manifest = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/cases/manifest.json"))))
            let file = try #require(manifest["cases"]?.arrayValue?.first?["file"]?.stringValue)
            let kept = try LoadedTranscript(
                raw: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))), file: file)
            #expect(kept.transcript.steps.count <= 10, "\(fault): kept \(kept.transcript.steps.count) steps")
            #expect(finding.note?.contains("shrunk to \(kept.transcript.steps.count) steps") == true)
        }
    }

    @Test("a shrunk finding keeps failing the same rule at the same kind of step, on a scenario no bigger than the original")
    func shrinkKeepsTheSignature() async throws {
        var options = ExploreRun.Options(targetName: "embedded", seed: 1, budget: .scenarios(1), findings: "/nonexistent")
        options.run.selection.jobs = 1
        let lane = ExploreRun(options, makeTarget: Self.reference(faults: [.verdictsReordered]), makeReference: Self.model)
        let tally = ExploreTally(budget: .scenarios(1))
        let scenario = KizunaSync.ExploreGenerator.scenario(index: 0, seed: 1)
        guard case .outcome(let outcome) = await lane.play(scenario, in: tally), let signature = outcome.signature else {
            Issue.record("scenario 0 should fail with verdicts reordered")
            return
        }
        let (shrunk, tries) = await lane.shrink(outcome, in: tally)
        #expect(shrunk.signature == signature)
        #expect(shrunk.transcript.stepCount < outcome.transcript.stepCount)
        #expect(shrunk.scenario.size < outcome.scenario.size)
        #expect(tries > 0)
    }

    @Test("a budget reads as a count of scenarios or a time, and nothing else")
    func budget() {
        #expect(ExploreBudget(parsing: "500") == .scenarios(500))
        #expect(ExploreBudget(parsing: "90s") == .seconds(90))
        #expect(ExploreBudget(parsing: "10m") == .seconds(600))
        #expect(ExploreBudget(parsing: "1h") == .seconds(3600))
        for bad in ["0", "-3", "10x", "s", "", "1.5m", "9999h"] { #expect(ExploreBudget(parsing: bad) == nil, "\(bad)") }
    }
}

/// A fresh temporary folder for an async body, removed when it ends.
func withTemporaryFolderAsync(_ body: (String) async throws -> Void) async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-explore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try await body(url.path)
}
