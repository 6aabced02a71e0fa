import AccordTestSupport
import Corpus
import Foundation
import KizunaWire
import Testing

@testable import ReferenceClient

@Suite("SyncEngine.pushOnce: the push in flight is resent unchanged until a definitive answer")
struct InFlightPushTests {
    /// A rig whose watermark is mutation 1 (todo 1 pushed and applied).
    static func watermarked(path: String = Client.temporaryPath()) async throws -> Rig {
        let rig = try Rig.make(path: path)
        try await rig.engine.write(Client.insert(1, row: 1))
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1)))
        _ = try await rig.engine.pushOnce()
        return rig
    }

    @Test("a write queued between a REMOTE failure and the retry is not in the resend; the next push sends it")
    func writeBetweenFailureAndRetry() async throws {
        let rig = try await Self.watermarked()
        try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "first"]))
        await rig.remote.enqueue(.failure("drop-ack"))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
        try await rig.engine.write(Client.write(3, "update", pk: Client.rowKey(1), columns: ["title": "queued later"]))
        await rig.remote.enqueue(Wire.error(500, "XX000"))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(2)))
        let resent = try await rig.engine.pushOnce()
        #expect(resent.outcome == .sent && resent.mutations == 1)
        let bodies = await rig.remote.sentBodies()
        #expect(bodies.count == 4)
        #expect(bodies[1] == bodies[2] && bodies[2] == bodies[3])
        #expect(!bodies[3].contains(Client.mutationID(3)))
        #expect(await rig.sent()[3]["last_mutation_id"] == .string(Client.mutationID(1)))
        #expect(try await rig.store.inFlightPush() == nil)

        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(3)))
        #expect(try await rig.engine.pushOnce().mutations == 1)
        let next = await rig.sent()[4]
        let ids = next["batch"]?["mutations"]?.arrayValue?.map { $0["mutation_id"] }
        #expect(ids == [.string(Client.mutationID(3))])
        #expect(next["last_mutation_id"] == .string(Client.mutationID(2)))
        #expect(try await rig.store.outbox().isEmpty)
        #expect(await rig.store.lastMutationID == Client.mutationID(3))
    }

    @Test("an atomic run that grows after a REMOTE failure is resent as first sent")
    func atomicRunGrows() async throws {
        let rig = try Rig.make()
        try await rig.engine.write(Client.insert(1, row: 1), atomicGroup: "g")
        try await rig.engine.write(Client.insert(2, row: 2), atomicGroup: "g")
        await rig.remote.enqueue(.failure("timeout"))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
        try await rig.engine.write(Client.insert(3, row: 3), atomicGroup: "g")
        await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1), Wire.applied(2)))
        #expect(try await rig.engine.pushOnce().mutations == 2)
        let bodies = await rig.remote.sentBodies()
        #expect(bodies[0] == bodies[1])
        #expect(try await rig.store.outbox().map(\.mutation.mutationID) == [Client.mutationID(3)])
    }

    @Test("the push in flight survives a reopen: the restarted client resends the same bytes and watermark")
    func survivesReopen() async throws {
        let path = Client.temporaryPath()
        let first: [String]
        do {
            let rig = try await Self.watermarked(path: path)
            try await rig.engine.write(Client.write(2, "update", pk: Client.rowKey(1), columns: ["title": "in flight"]))
            await rig.remote.enqueue(.failure("killed before the answer"))
            #expect(await failure { _ = try await rig.engine.pushOnce() } == "REMOTE")
            first = await rig.remote.sentBodies()
            await rig.store.close()
        }
        let again = try Rig.make(path: path)
        #expect(try await again.store.inFlightPush()?.body == Array(first[1].utf8))
        try await again.engine.write(Client.write(3, "update", pk: Client.rowKey(1), columns: ["done": true]))
        await again.remote.enqueue(json: Wire.verdicts(Wire.applied(2)))
        #expect(try await again.engine.pushOnce().mutations == 1)
        #expect(await again.remote.sentBodies() == [first[1]])
        #expect(try await again.store.outbox().map(\.mutation.mutationID) == [Client.mutationID(3)])
        #expect(await again.store.lastMutationID == Client.mutationID(2))
    }

    @Test("definitive answers end the push in flight: a permanent failure, a wire violation and a signal")
    func definitiveAnswers() async throws {
        let answers: [(InMemoryRemote.Answer, String?)] = [
            (Wire.error(400, "23514"), "PERMANENT_TRANSPORT"),
            (.reply(RemoteReply(status: 200, body: Array(Wire.verdicts(Wire.applied(9)).utf8))), "VERDICT_BIJECTION"),
            (.reply(RemoteReply(status: 200, body: Array("not json".utf8))), "JSON"),
        ]
        for (answer, code) in answers {
            let rig = try Rig.make()
            try await rig.engine.write(Client.insert(1, row: 1))
            await rig.remote.enqueue(answer)
            #expect(await failure { _ = try await rig.engine.pushOnce() } == code)
            #expect(try await rig.store.inFlightPush() == nil, "\(String(describing: code))")
            try await rig.engine.write(Client.insert(2, row: 2))
            await rig.remote.enqueue(json: Wire.verdicts(Wire.applied(1), Wire.applied(2)))
            #expect(try await rig.engine.pushOnce().mutations == 2)
        }

        let signalled = try Rig.make()
        try await signalled.engine.write(Client.insert(1, row: 1))
        await signalled.remote.enqueue(json: Wire.signal("RESET_REQUIRED"))
        #expect(try await signalled.engine.pushOnce().signal == .resetRequired)
        #expect(try await signalled.store.inFlightPush() == nil)
        #expect(await signalled.store.outboxDepth == 1)
    }

    @Test("an abort naming an offender outside the batch throws UNKNOWN_BATCH_OFFENDER and changes nothing")
    func unknownOffender() async throws {
        let rig = try Rig.make(faults: [.skipBijectionCheck])
        try await rig.engine.write(Client.insert(1, row: 1, title: "mine"), atomicGroup: "g")
        try await rig.engine.write(Client.insert(2, row: 2), atomicGroup: "g")
        let before = try await rig.store.outbox()
        await rig.remote.enqueue(json: Wire.aborted(9, "PRECONDITION", row: nil))
        #expect(await failure { _ = try await rig.engine.pushOnce() } == "UNKNOWN_BATCH_OFFENDER")
        #expect(try await rig.store.outbox() == before)
        #expect(try await rig.todo(1)?["title"] == "mine")
        #expect(await rig.store.journal.isEmpty)
        #expect(await rig.store.events.allSatisfy { $0.code != "BATCH_ABORTED" })

        let abort = BatchAbort(offenderMutationID: Client.mutationID(9), reason: .precondition, serverRow: nil)
        var code: String?
        do {
            try await rig.store.applyAbort(abort, batch: before)
        } catch let error as WireError {
            code = error.protocolCode
        }
        #expect(code == "UNKNOWN_BATCH_OFFENDER")
        #expect(try await rig.store.outbox() == before)
    }

    @Test("RESET_REQUIRED on a pull drops the staged pages and latches the block together, durably")
    func resetDropsStaging() async throws {
        let path = Client.temporaryPath()
        do {
            let rig = try Rig.make(path: path)
            await rig.remote.enqueue(json: Wire.page(cursor: "0:1", hasMore: true, rows: [(1, Wire.row(1, title: "staged"), 1)]))
            await rig.remote.enqueue(json: Wire.page(cursor: "0", signal: "RESET_REQUIRED"))
            #expect(try await rig.engine.pull().signal == .resetRequired)
            #expect(try await rig.store.stagedCount() == 0)
            #expect(await rig.store.stagingCursor == nil)
            #expect(await rig.store.softBlocked)
            #expect(await rig.store.events.filter { $0.code == "RESET_REQUIRED" }.count == 1)
            await rig.store.close()
        }
        let again = try Rig.make(path: path)
        #expect(try await again.store.stagedCount() == 0)
        #expect(await again.store.stagingCursor == nil)
        #expect(await again.store.softBlocked)
    }
}
