import AccordTestSupport
import Corpus
import Foundation
import JSON
import KizunaWire
import Testing

@testable import ReferenceClient

/// Replays the shared corpus's golden transcripts through the engine: each rpc step answers the golden response, the
/// request the engine sends must equal the golden request, and every assert and postcondition must hold.
@Suite("Golden transcripts replayed through the engine")
struct GoldenReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/kizunasync-protocol/transcripts")

    static var files: [URL] {
        let found = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects.compactMap { $0 as? URL }
        return (found ?? []).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    @Test("every golden transcript replays with golden-equal requests and passing checks", .enabled(if: !files.isEmpty))
    func replayAll() async throws {
        for file in Self.files {
            let json = try JSONParser.parse(Array(try Data(contentsOf: file)))
            let transcript = try Transcript(json: json, file: file.lastPathComponent)
            try await Self.replay(transcript)
        }
    }

    static func replay(_ transcript: Transcript) async throws {
        let id = transcript.caseID
        let exchanges = transcript.steps.compactMap { step -> RPCExchange? in
            if case .rpc(let rpc) = step.action { return rpc }
            return nil
        }
        // A pull naming another user's bucket (tombstones/003) is a server-lane probe no client engine sends.
        let foreign = exchanges.contains { exchange in
            exchange.rpc == .pull
                && (exchange.request["buckets"]?.arrayValue ?? []).contains {
                    $0["params"]?.objectValue?.members.contains { $0.value != .string(transcript.context.userID) } ?? false
                }
        }
        if foreign { return }
        let firstPull = exchanges.first { $0.rpc == .pull }?.request
        let pushes = exchanges.filter { $0.rpc == .push }.map(\.request)
        let rig = try Rig.make(
            tables: transcript.context.server.tables, pullLimit: firstPull?["limit"]?.numberValue?.intValue,
            checkpoint: firstPull?["cursor"]?.stringValue ?? "0")
        for step in transcript.steps {
            let at = "\(id) step \(step.n)"
            switch step.action {
            case .server, .reap:
                continue
            case .local(let write):
                // The golden push carrying this id supplies the atomic flag and the precondition the runner sends.
                let carrier = pushes.enumerated().first { push in
                    push.element["batch"]?["mutations"]?.arrayValue?.contains { $0["mutation_id"]?.stringValue == write.mutationID }
                        ?? false
                }
                var mutation = Mutation(
                    mutationID: write.mutationID, table: write.table, pk: write.pk, op: write.op, columns: write.columns,
                    precondition: write.precondition, transforms: write.transforms)
                let golden = carrier?.element["batch"]?["mutations"]?.arrayValue?.first {
                    $0["mutation_id"]?.stringValue == write.mutationID
                }
                if let precondition = golden?["precondition"]?.objectValue { mutation.precondition = precondition }
                let group = carrier.flatMap { $0.element["batch"]?["atomic"] == true ? "push-\($0.offset)" : nil }
                let code = await failure { try await rig.engine.write(mutation: mutation, atomicGroup: group) }
                #expect(code == write.expectError, "\(at)")
            case .fault(let fault):
                await rig.remote.enqueue(InMemoryRemote.Answer.failure(fault.fault.rawValue))
                let before = await rig.remote.requests.count
                let code = await failure {
                    if fault.target == .push { _ = try await rig.engine.pushOnce() } else { _ = try await rig.engine.pull(maxPages: 1) }
                }
                #expect(code == "REMOTE", "\(at)")
                if let request = fault.request {
                    let sent = await rig.remote.sentBodies()
                    #expect(sent.count == before + 1 && sent.last == CanonicalJSON.compact(request), "\(at)")
                }
            case .rpc(let rpc):
                await rig.remote.enqueue(
                    InMemoryRemote.Answer.reply(RemoteReply(status: rpc.status, body: Array(CanonicalJSON.compact(rpc.response).utf8))))
                let code = await failure {
                    if rpc.rpc == .push { _ = try await rig.engine.pushOnce() } else { _ = try await rig.engine.pull(maxPages: 1) }
                }
                #expect(code == rpc.expectError, "\(at)")
                #expect(await rig.remote.sentBodies().last == CanonicalJSON.compact(rpc.request), "\(at)")
            case .assert(let checks):
                try await verify(checks, rig: rig, at: at)
            }
        }
        try await verify(transcript.postconditions, rig: rig, at: "\(id) postconditions")
    }

    static func verify(_ checks: [Check], rig: Rig, at: String) async throws {
        for check in checks {
            switch check {
            case .localRow(let table, let pk, let row):
                let actual = try await rig.store.row(table: table, pk: pk)
                #expect(actual.map { CanonicalJSON.compact(.object($0)) } == row.map { CanonicalJSON.compact(.object($0)) }, "\(at) \(pk)")
            case .cursor(let token):
                #expect(await rig.store.cursor == token, "\(at)")
            case .outboxDepth(let depth):
                #expect(await rig.store.outboxDepth == depth, "\(at)")
            case .event(let code):
                #expect(await rig.store.events.contains { $0.code == code }, "\(at) \(code)")
            case .noIntermediateCommit:
                let staged = try await rig.store.stagedCount()
                let continuing = await rig.store.stagingCursor != nil
                #expect(continuing || staged == 0, "\(at)")
            }
        }
    }
}
