import AccordDriver
import Checks
import Corpus
import Foundation
import HTTP
import Harness
import JSON
import KizunaWire
import Reports

extension KizunaSync.ClientPlay where Wrapper == KillPlay {
    /// between-pages and soft-block: the step is played as usual, then the driver is killed and
    /// restarted: a staged page stays invisible and the cursor stays committed; a latched soft
    /// block stays latched (push and pull make no request and answer blocked).
    mutating func killAfterStep(_ step: Step, exchange: RPCExchange, name: String) async {
        await playRPC(step, exchange: exchange, name: name)
        guard stopped == nil, let seen = await state(name: name), await restart(name), let post = await state(name: name) else { return }
        let label = "step \(step.n) \(step.label)"
        var failures = KillJudge.recoveryFailures(before: seen, after: post, at: label)
        if kill.point == .betweenPages, let staged = evaluate(.noIntermediateCommit, in: post, step: step) {
            failures.append(
                Failure(
                    .cursorAhead,
                    message: staged.message.replacingOccurrences(
                        of: ObligationID.checkpoint.rawValue, with: ObligationID.cursorAhead.rawValue),
                    body: staged.body))
        }
        if kill.point == .softBlock {
            for op in [DriverOp.push, .pull] {
                mock.expect(nil)
                let answer = await session.call(op == .push ? .push : .pull(PullOptions(maxPages: 1)))
                let sent = mock.take()
                var blocked = false
                switch answer {
                case .result(.pushed(let result)):
                    blocked = result.outcome == .blocked || (result.outcome == .nothing && post.outboxDepth == 0)
                case .result(.pulled(let result)): blocked = result.outcome == .blocked
                case .broken(let reason):
                    stop(name, reason)
                    return
                default: blocked = false
                }
                if !sent.isEmpty || !blocked {
                    failures.append(
                        Failure(
                            .killSoftBlock,
                            message:
                                "\(label): \(ObligationID.killSoftBlock) after the restart a \(op.rawValue) \(sent.isEmpty ? "" : "sent a request and ")answered \(describe(answer)), not blocked",
                            body: sent.map(\.summary).joined(separator: "\n")))
                }
            }
        }
        recordKill(step, failures, note: "killed after the driver answered the step; restarted on the same store")
    }

    /// identity-change: after the write, the store is reopened under another user and client. The
    /// driver either refuses that open with an engine code, or shows an empty outbox and pushes none
    /// of the previous identity's mutations. Then the store is reopened under its own identity and
    /// must show the state that was durable before.
    mutating func killIdentity(_ step: Step, local: LocalWrite, name: String) async {
        await playWrite(step, local: local, name: name)
        guard stopped == nil, var open = kill.open, let seen = await state(name: name) else { return }
        let label = "step \(step.n) \(step.label)"
        let previous = Set(
            transcript.steps.filter { $0.n <= step.n }.compactMap { plan.writes[$0.n]?.mutation.mutationID })
        open.userID = KillPlay.otherUser
        open.clientID = KillPlay.otherClient
        open.jwt = KizunaSync.jwtKey.mint(JWTClaims(subject: KillPlay.otherUser, sessionID: KillPlay.otherClient))
        let other: KizunaSync.Mock
        do throws(RunError) {
            other = try await KizunaSync.Mock.start(
                expecting: RequestMatch.Expected(jwt: open.jwt, apikey: open.apikey, clientID: KillPlay.otherClient))
        } catch {
            stop(name, "\(error)")
            return
        }
        open.baseURL = other.baseURL
        await session.kill()
        var failures: [Failure] = []
        var note = ""
        do throws(RunError) {
            session.replace(with: try kill.relaunch())
        } catch {
            await other.stop()
            stop(name, "the driver did not restart after the kill: \(error)")
            return
        }
        _ = await session.call(.hello(protocolVersion: DriverRequest.protocolVersion), timeout: timeout)
        switch await session.call(.open(open)) {
        case .failure(let failure) where !failure.code.hasPrefix("DRIVER_"):
            note = "the driver refused the store under another identity with \(failure.code)"
        case .result:
            note = "the driver opened the store under another identity"
            if case .result(.state(let state)) = await session.call(.state(StateOptions())), state.outboxDepth != 0 {
                failures.append(
                    Failure(
                        .identity,
                        message:
                            "\(label): \(ObligationID.identity) another identity sees \(state.outboxDepth) pending outbox entries of the previous one"
                    ))
            }
            other.expect(nil)
            _ = await session.call(.push)
            let leaked = other.take().flatMap { request in
                (request.body?["batch"]?["mutations"]?.arrayValue ?? []).compactMap { $0["mutation_id"]?.stringValue }
            }.filter(previous.contains)
            if !leaked.isEmpty {
                failures.append(
                    Failure(
                        .identity,
                        message:
                            "\(label): \(ObligationID.identity) another identity pushed the previous identity's mutations \(leaked.joined(separator: ", "))"
                    ))
            }
        case let answer:
            failures.append(
                Failure(.identity, message: "\(label): \(ObligationID.identity) open under another identity answered \(describe(answer))"))
        }
        await other.stop()
        guard await restart(name), let post = await state(name: name) else { return }
        failures += KillJudge.recoveryFailures(before: seen, after: post, at: label + " (reopened under its own identity)")
        recordKill(step, failures, note: note)
    }

    /// The first row of a transfer's pages (up to and including `step`) that a committed state does
    /// not show; keys the case writes locally are left out (a pending write may be rebased over them).
    func missingTransferRow(upTo step: Int, in state: StateResult) -> (table: String, pk: String, row: JSONObject?)? {
        var entries: [(table: String, pk: String, row: JSONObject?)] = []
        for candidate in transcript.steps where candidate.n <= step {
            guard case .rpc(let exchange) = candidate.action, exchange.rpc == .pull, exchange.isAnswer, exchange.expectError == nil else {
                continue
            }
            for list in ["rows", "tombstones"] {
                for entry in exchange.response[list]?.arrayValue ?? [] {
                    guard let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue else { continue }
                    entries.append((table, pk, list == "rows" ? entry["row"]?.objectValue : nil))
                }
            }
            if candidate.n < step && exchange.response["has_more"] != .bool(true) { entries = [] }
        }
        let written = Set(plan.writes.values.map { "\($0.mutation.table)/\($0.mutation.pk)" })
        var last: [String: (table: String, pk: String, row: JSONObject?)] = [:]
        var order: [String] = []
        for entry in entries where !written.contains("\(entry.table)/\(entry.pk)") {
            let key = "\(entry.table)/\(entry.pk)"
            if last[key] == nil { order.append(key) }
            last[key] = entry
        }
        for key in order {
            guard let entry = last[key], !StateResult.sameRow(state.row(entry.table, entry.pk), entry.row) else { continue }
            return entry
        }
        return nil
    }
}
