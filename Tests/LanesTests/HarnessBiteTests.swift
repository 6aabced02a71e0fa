import AccordTestSupport
import Corpus
import Foundation
import JSON
import KizunaWire
import ReferenceServer
import Reports
import ServerContract
import Testing

@testable import Lanes

/// The reference server behind a deliberate fault: upstream's harness mutants M-1..M-6.
actor BrokenServer: KizunaSync.ServerTarget {
    enum Fault: String, CaseIterable, Sendable {
        case cursorPlusOne = "M-1 adds 1 to the pull cursor"
        case dropLastVerdict = "M-2 drops the last verdict"
        case emptyTombstones = "M-3 empties tombstones"
        case nullSignal = "M-4 nulls the signal"
        case invertHasMore = "M-5 inverts has_more"
        case freshRetryIDs = "M-6 gives retried mutations fresh ids"
    }

    private let inner: ReferenceServer
    private let fault: Fault
    private var seenMutationIDs: Set<String> = []
    private var freshCounter = 0

    init(_ fault: Fault) throws {
        self.inner = try ReferenceServer()
        self.fault = fault
    }

    func capabilities() async throws(TargetError) -> TargetCapabilities { try await inner.capabilities() }
    func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt { try await inner.seed(seed) }
    func setStep(_ step: Int) async throws(TargetError) { try await inner.setStep(step) }
    func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        try await inner.apply(change, heldIn: transaction)
    }
    func commit(transaction: String) async throws(TargetError) { try await inner.commit(transaction: transaction) }

    func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.pull(body, as: identity)
        switch fault {
        case .cursorPlusOne:
            if let text = reply.body["cursor"]?.stringValue, let token = try? CursorToken(parsing: text),
                let bumped = try? CursorToken(start: token.start, highWater: token.highWater.successor, holes: token.holes)
            {
                reply.body = reply.body.replacing(at: JSONPointer(tokens: ["cursor"]), with: .string(bumped.description))
            }
        case .emptyTombstones: reply.body = reply.body.replacing(at: JSONPointer(tokens: ["tombstones"]), with: [])
        case .nullSignal: reply.body = reply.body.replacing(at: JSONPointer(tokens: ["signal"]), with: .null)
        case .invertHasMore:
            if let more = reply.body["has_more"]?.boolValue {
                reply.body = reply.body.replacing(at: JSONPointer(tokens: ["has_more"]), with: .bool(!more))
            }
        default: break
        }
        return reply
    }

    func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var request = body
        var renamed: [String: String] = [:]
        if fault == .freshRetryIDs {
            for (index, mutation) in (body["batch"]?["mutations"]?.arrayValue ?? []).enumerated() {
                guard let id = mutation["mutation_id"]?.stringValue else { continue }
                if !seenMutationIDs.insert(id).inserted {
                    freshCounter += 1
                    let fresh = String(format: "00000000-0000-4000-8000-f19%09d", freshCounter)
                    renamed[fresh] = id
                    request = request.replacing(
                        at: JSONPointer(tokens: ["batch", "mutations", String(index), "mutation_id"]), with: .string(fresh))
                }
            }
        }
        var reply = try await inner.push(request, as: identity)
        for (index, verdict) in (reply.body["verdicts"]?.arrayValue ?? []).enumerated() {
            if let id = verdict["mutation_id"]?.stringValue, let original = renamed[id] {
                reply.body = reply.body.replacing(
                    at: JSONPointer(tokens: ["verdicts", String(index), "mutation_id"]), with: .string(original))
            }
        }
        if fault == .dropLastVerdict, var verdicts = reply.body["verdicts"]?.arrayValue, !verdicts.isEmpty {
            verdicts.removeLast()
            reply.body = reply.body.replacing(at: JSONPointer(tokens: ["verdicts"]), with: .array(verdicts))
        }
        return reply
    }
}

@Suite("harness bites: the server lane catches upstream's mutants where upstream pins them")
struct HarnessBiteTests {
    static let pinned: [(BrokenServer.Fault, String, Int)] = [
        (.cursorPlusOne, "pull/001-bootstrap-empty", 1),
        (.dropLastVerdict, "push/002-rls-denied-not-a-wedge", 7),
        (.emptyTombstones, "tombstones/001-delete-propagates", 5),
        (.nullSignal, "lifecycle/001-checkpoint-expired-rehydrate", 1),
        (.invertHasMore, "pull/002-keyset-pagination", 4),
        (.freshRetryIDs, "push/003-replay-returns-recorded-verdicts", 6),
    ]

    static func scenarios() throws -> Scenarios {
        let path = RunnerFixtures.packageRoot + "/../shared/corpus-scenarios.json"
        return try Scenarios(json: try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))), file: path)
    }

    @Test("the reference server itself passes each pinned case")
    func referencePasses() async throws {
        for (_, caseID, _) in Self.pinned {
            let suite = await ServerLane<KizunaSync>(scenarios: try Self.scenarios()).run(
                try RunnerFixtures.transcript(caseID), on: try ReferenceServer(), properties: [])
            #expect(suite.tally.failures == 0 && suite.tally.errors == 0, "\(caseID): \(suite.cases)")
        }
    }

    @Test("each mutant fails first at the step upstream pins, with and without seqs 100 higher", arguments: 0..<6, [false, true])
    func mutantFailsAtPinnedStep(_ index: Int, offset: Bool) async throws {
        let (fault, caseID, step) = Self.pinned[index]
        let broken = try BrokenServer(fault)
        let target: any KizunaSync.ServerTarget = offset ? RenumberingServer(broken, .offset(100)) : broken
        let suite = await ServerLane<KizunaSync>(scenarios: try Self.scenarios()).run(
            try RunnerFixtures.transcript(caseID), on: target, properties: [])
        let firstFailure = suite.cases.first { if case .failed = $0.outcome { true } else { false } }
        #expect(
            firstFailure?.name.hasPrefix("step \(step) ") == true,
            "\(fault.rawValue) on \(caseID): first failure \(String(describing: firstFailure))")
    }
}
