import Checks
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

/// Issue 39: `accord shrink` cuts a failing recording of over a thousand exchanges down to a case of
/// at most ten steps that fails the same rule.
@Suite("accord shrink: a failing recording cut down", .serialized)
struct RecordingShrinkTests {
    /// A long session of a correct service: two devices of one user take turns inserting,
    /// updating and pushing rows in pairs and pulling them, realized on the reference and written
    /// as the recording a proxy would have made of it.
    static func longRecording(rounds: Int) async throws -> RecordingContents {
        let user = ExploreIDs.user(0)
        var actions: [KizunaSync.ExploreAction] = []
        var mutations = 0
        for round in 0..<rounds {
            let device = round % 2
            for offset in 0..<2 {
                let pk = ExploreIDs.row(table: 0, round * 2 + offset)
                actions.append(
                    .write(
                        device: device,
                        Mutation(
                            mutationID: ExploreIDs.mutation(mutations), table: "todos", pk: pk, op: .insert,
                            columns: ["owner_id": .string(user), "title": .string("row \(round)"), "done": false])))
                mutations += 1
            }
            actions.append(.push(device: device, count: 2, atomic: false, answerLost: false))
            actions.append(.pull(device: 1 - device, limit: round % 3 == 0 ? 1 : nil))
        }
        let scenario = KizunaSync.ExploreScenario(
            seed: 0, index: 0, users: [user],
            devices: [
                .init(client: ExploreIDs.device(0), user: 0, schemaVersion: 1),
                .init(client: ExploreIDs.device(1), user: 0, schemaVersion: 1),
            ],
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]), tables: ["todos"], actions: actions)
        let realized = try await KizunaSync.ExploreRealizer.realize(
            scenario, caseID: "lifecycle/000-long-session", on: try ReferenceServer())
        let transcript = try Transcript(json: realized.json, file: "long-session.json")
        return TranscriptToRecording.convert(transcript, tool: "accord-test").recording
    }

    static func target(_ faults: Set<ServerFault>) -> KizunaSync.TargetFactory {
        { () throws(TargetError) -> any KizunaSync.ServerTarget in
            do { return try ReferenceServer(faults: faults) } catch { throw TargetError.refused("\(error)") }
        }
    }

    @Test("a recording of 1,000+ exchanges failing I-5 on a verdict-dropping server shrinks to a case of at most 10 steps that fails I-5")
    func thousandExchanges() async throws {
        let recording = try await Self.longRecording(rounds: 520)
        #expect(recording.exchanges.count >= 1000)
        #expect(
            await RecordingShrink(makeTarget: Self.target([])).shrink(recording, file: "long.jsonl") == nil,
            "a correct server replays it clean")

        let shrink = RecordingShrink(makeTarget: Self.target([.verdictDropped]))
        let shrunk = try #require(await shrink.shrink(recording, file: "long.jsonl"))
        #expect(shrunk.from == recording.exchanges.count)
        #expect(shrunk.recording.exchanges.count <= 10)
        #expect(shrunk.failures.first?.ruleID == "I-5")

        try await withTemporaryFolderAsync { folder in
            let kept = try RecordingShrink.keep(shrunk, in: folder, notes: ["test"])
            let loaded = try LoadedTranscript(raw: Array(try Data(contentsOf: URL(fileURLWithPath: kept.file))), file: kept.file)
            #expect(loaded.transcript.steps.count <= 10)
            // Replayed as a case, against the same broken server, it fails the same rule.
            let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(
                loaded, on: try ReferenceServer(faults: [.verdictDropped]), properties: [])
            let rules = suite.cases.flatMap { result -> [RuleID] in
                if case .failed(let failures) = result.outcome { return failures.map(\.ruleID) }
                return []
            }
            #expect(rules.first == "I-5", "\(suite.cases)")
            let clean = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: try ReferenceServer(), properties: [])
            #expect(clean.tally.failures == 0 && clean.tally.errors == 0, "\(clean.cases)")
        }
    }
}
