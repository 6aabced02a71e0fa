import AccordDriver
import AccordTestSupport
import Corpus
import Explore
import Foundation
import Harness
import JSON
import KizunaWire
import ReferenceDriver
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// Issue 39, the client half: `accord explore --client` realizes a scenario's device 0 with the
/// reference client behind its driver, then plays the transcript through the client under test.
@Suite("accord explore --client: client scenarios realized by the reference client", .serialized)
struct ExploreClientTests {
    /// The reference client's engine in this process, as `accord driver` runs it.
    static let golden: DriverLauncher = { () throws(RunError) -> any DriverChannel in
        InProcessDriver(engine: KizunaSync.ReferenceClientDriver())
    }

    static func realize(_ scenario: KizunaSync.ExploreScenario) async throws -> KizunaSync.ExploreTranscript {
        try await ExploreGoldenClient.realize(
            scenario, caseID: "lifecycle/000-explore-client-test", launch: golden, timeout: .seconds(10),
            reference: { () throws(TargetError) in try ExploreTests.reference()() })
    }

    /// One user, the client and another actor: a row from before, the client pulls it in pages of
    /// one, writes an atomic pair, pushes with its answer lost, pushes again with a broken answer,
    /// pulls over a failing connection, then the closing phase.
    static var scripted: KizunaSync.ExploreScenario {
        let user = ExploreIDs.user(0)
        let before = ExploreIDs.row(table: 0, 0)
        let mine = ExploreIDs.row(table: 0, 1)
        let insert = Mutation(
            mutationID: ExploreIDs.mutation(0), table: "todos", pk: mine, op: .insert,
            columns: ["owner_id": .string(user), "title": "alpha", "done": false])
        let update = Mutation(mutationID: ExploreIDs.mutation(1), table: "todos", pk: mine, op: .update, columns: ["done": true])
        let later = Mutation(mutationID: ExploreIDs.mutation(2), table: "todos", pk: before, op: .update, columns: ["title": "beta"])
        return KizunaSync.ExploreScenario(
            seed: 0, index: 0, users: [user], devices: [.init(client: ExploreIDs.device(0), user: 0, schemaVersion: 1)],
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), tables: ["todos"],
            actions: [
                .server(
                    .upsert(table: "todos", pk: before, columns: ["owner_id": .string(user), "title": "gamma", "done": false], hlc: nil),
                    heldFor: 0),
                .server(
                    .upsert(
                        table: "todos", pk: ExploreIDs.row(table: 0, 2),
                        columns: ["owner_id": .string(user), "title": "alpha", "done": true], hlc: nil), heldFor: 0),
                .pull(device: 0, limit: nil), .atomicWrites(device: 0, [insert, update]),
                .push(device: 0, count: 1, atomic: false, answerLost: true), .push(device: 0, count: 1, atomic: false, answerLost: false),
                .write(device: 0, later), .brokenAnswer(device: 0), .failedPull(device: 0), .settlePush(device: 0),
                .settlePull(device: 0, limit: nil), .observe(user: 0, limit: nil),
            ],
            driven: .init(pullLimit: 1, fault: .none))
    }

    @Test("client scenario i of a seed is always the same, and over 300 the generator draws every client action and fault kind")
    func generates() {
        let faults = KizunaSync.ExploreClientFaults(
            kills: ["after-local-write", "between-pages"], firstInstantOnly: ["after-local-write"], storagePoints: ["local-write"],
            storageVariants: [.init(errno: "eio", continuation: "restart")])
        let first = KizunaSync.ExploreGenerator.clientScenario(index: 5, seed: 9, faults: faults)
        #expect(first == KizunaSync.ExploreGenerator.clientScenario(index: 5, seed: 9, faults: faults))
        #expect(first != KizunaSync.ExploreGenerator.clientScenario(index: 6, seed: 9, faults: faults))
        let scenarios = (0..<300).map { KizunaSync.ExploreGenerator.clientScenario(index: $0, seed: 1, faults: faults) }
        let kinds = Set(
            scenarios.flatMap { $0.actions }.map { action -> String in
                switch action {
                case .write(let device, _): device == 0 ? "write" : "other device"
                case .atomicWrites: "atomic writes"
                case .push(let device, _, _, let lost): device == 0 ? (lost ? "push lost" : "push") : "other device"
                case .brokenAnswer: "broken answer"
                case .pull: "pull"
                case .failedPull: "failed pull"
                case .server: "server"
                case .reap: "reap"
                case .settlePush, .settlePull, .observe: "closing"
                }
            })
        #expect(
            kinds == [
                "write", "atomic writes", "push", "push lost", "broken answer", "pull", "failed pull", "server", "reap", "closing",
                "other device",
            ])
        let drawn = Set(
            scenarios.compactMap { $0.driven?.fault }.map { fault -> String in
                switch fault {
                case .none: "none"
                case .kill(let point, let instant): point == "after-local-write" && instant > 0 ? "hooked kill at a later instant" : "kill"
                case .storage: "storage"
                }
            })
        #expect(drawn == ["none", "kill", "storage"], "a hooked kill point is played at its first instant only")
        #expect(scenarios.allSatisfy { $0.driven?.pullLimit.map { (1...3).contains($0) } ?? true })
    }

    @Test(
        "realized through the reference client, the golden requests are its own: an atomic pair in one batch, a lost answer resent as is, a broken answer it must refuse, a failed pull, and a closing assert of the observer's rows"
    )
    func realizesThroughTheReferenceClient() async throws {
        let realized = try await Self.realize(Self.scripted)
        #expect(realized.unasserted == nil)
        #expect(realized.unplayable == nil)
        let loaded = try LoadedTranscript(raw: CanonicalJSON.render(realized.json), file: "client.json")
        let steps = loaded.transcript.steps
        // One page of the two rows from before; the closing phase pages through the rest (three
        // pages of one) and the observer pulls once.
        #expect(
            steps.map(\.label) == [
                "server", "server", "pull", "local", "local", "fault drop-ack", "push", "local", "push", "fault transport-error", "push",
                "pull", "pull", "pull", "pull", "assert",
            ], "\(steps.map(\.label))")
        guard case .fault(let lost) = steps[5].action, case .rpc(let resend) = steps[6].action, case .rpc(let broken) = steps[8].action
        else {
            Issue.record("expected a drop-ack, its resend and a broken answer at steps 6, 7 and 9")
            return
        }
        #expect(lost.request?["batch"]?["atomic"] == .bool(true))
        #expect(lost.request?["batch"]?["mutations"]?.arrayValue?.count == 2)
        #expect(resend.request == lost.request, "the batch whose answer was lost is sent again byte for byte")
        #expect(broken.expectError == "VERDICT_BIJECTION")
        #expect(broken.response["verdicts"]?.arrayValue?.count == 2, "one verdict for the one mutation sent, and a stray one")
        guard case .rpc(let settled) = steps[10].action else {
            Issue.record("expected the closing push at step 11")
            return
        }
        #expect(
            settled.request["batch"]?["mutations"]?.arrayValue?.compactMap { $0["mutation_id"]?.stringValue } == [ExploreIDs.mutation(2)],
            "the refused answer left the write queued, and the closing push sends it again")
        guard case .assert(let checks) = steps[15].action else {
            Issue.record("expected the closing assert at step 16")
            return
        }
        #expect(checks.contains(.outboxDepth(0)))
        #expect(checks.count == 4, "three rows of the user, and an empty outbox: \(checks)")
        #expect(
            checks.contains(
                .localRow(
                    table: "todos", pk: ExploreIDs.row(table: 0, 0),
                    row: ["done": false, "owner_id": .string(ExploreIDs.user(0)), "title": "beta"])))

        // The reference client passes its own transcript in the client lane, the pair grouped as it wrote it.
        let suite = await ClientLane<KizunaSync>().run(loaded, launch: Self.golden, properties: [])
        #expect(
            suite.cases.allSatisfy { $0.outcome == .passed || $0.outcome.isSkipped }, "\(suite.cases.map { "\($0.name): \($0.outcome)" })")
        #expect(suite.cases.contains { $0.name.hasPrefix("step 16 assert") && $0.outcome == .passed })
    }

    @Test("an atomic group the client never pushes, though it pushed after writing it, makes a scenario no transcript can hold")
    func unpushedGroupIsUnplayable() async throws {
        var scenario = Self.scripted
        let user = ExploreIDs.user(0)
        let plain = Mutation(
            mutationID: ExploreIDs.mutation(5), table: "todos", pk: ExploreIDs.row(table: 0, 3), op: .insert,
            columns: ["owner_id": .string(user), "title": "alpha"])
        let grouped = Mutation(
            mutationID: ExploreIDs.mutation(6), table: "todos", pk: ExploreIDs.row(table: 0, 3), op: .update, columns: ["done": true])
        // A plain write, then a group, then one push: the batch stops where the group starts.
        scenario.actions = [
            .write(device: 0, plain), .atomicWrites(device: 0, [grouped]), .push(device: 0, count: 1, atomic: false, answerLost: false),
        ]
        let realized = try await Self.realize(scenario)
        #expect(realized.unplayable == "the atomic group of \(ExploreIDs.mutation(6)) is never pushed")
    }

    @Test("the client lane opens a store at the page size and cursor of its first pull, also when that pull's connection fails")
    func planReadsAFailedFirstPull() async throws {
        var scenario = Self.scripted
        scenario.actions = [.failedPull(device: 0)]
        scenario.driven = .init(pullLimit: 2, fault: .none)
        let realized = try await Self.realize(scenario)
        let loaded = try LoadedTranscript(raw: CanonicalJSON.render(realized.json), file: "client.json")
        #expect(loaded.transcript.steps.map(\.label) == ["fault transport-error"])
        let plan = ClientCasePlan(loaded.transcript)
        #expect(plan.pullLimit == 2)
        #expect(plan.checkpoint == "0")
        let suite = await ClientLane<KizunaSync>().run(loaded, launch: Self.golden, properties: [])
        #expect(suite.cases.allSatisfy { $0.outcome == .passed }, "\(suite.cases.map { "\($0.name): \($0.outcome)" })")
    }

    @Test("a kill or storage fault at a point is played at the chosen instant, counted round the instants the case has")
    func instants() {
        #expect(ExploreRun.instant(0, of: [3, 7, 9]) == 3)
        #expect(ExploreRun.instant(2, of: [3, 7, 9]) == 9)
        #expect(ExploreRun.instant(4, of: [3, 7]) == 3)
        #expect(ExploreRun.instant(1, of: []) == nil)
        let fault = KizunaSync.ExploreClientFault.storage(point: "staged-page", errno: "eio", continuation: "restart", instant: 2)
        #expect(fault.atFirstInstant == .storage(point: "staged-page", errno: "eio", continuation: "restart", instant: 0))
        #expect(fault.description == "storage fault @ staged-page eio restart (instant 3)")
    }
}

extension CaseOutcome {
    var isSkipped: Bool { if case .skipped = self { true } else { false } }
}
