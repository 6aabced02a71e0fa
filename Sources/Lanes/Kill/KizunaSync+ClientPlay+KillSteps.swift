import AccordDriver
import Checks
import Corpus
import KizunaWire
import Reports

extension KizunaSync.ClientPlay where Wrapper == KillPlay {
    /// after-local-write: SIGKILL after the write's answer; with the hook the driver dies at the
    /// seam instead, and the write must be durable whole (row and outbox entry) or not at all.
    mutating func killWrite(_ step: Step, local: LocalWrite, name: String) async {
        guard let request = plan.writes[step.n], let pre = await state(name: name) else { return }
        let label = "step \(step.n) \(step.label)"
        switch await session.callKilling(.write(request), when: .never, mock: mock) {
        case .answered(.result(.written(let result))):
            cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "outbox depth \(result.outboxDepth)"))
            guard let seen = await state(name: name), await restart(name), let post = await state(name: name) else { return }
            recordKill(step, KillJudge.recoveryFailures(before: seen, after: post, at: label), note: "killed after the write was answered")
        case .died(_, let ending) where diedAtHook(ending):
            guard await restart(name), let post = await state(name: name) else { return }
            let changed = post.rows != pre.rows
            let queued = post.outboxDepth == pre.outboxDepth + 1
            var failures = KillJudge.journalOnce(post, at: label)
            if post.cursor != pre.cursor {
                failures.append(
                    Failure(.cursorAhead, message: "\(label): \(ObligationID.cursorAhead) a write moved the cursor to \(post.cursor)"))
            }
            // A queued write may leave its row as it was (e.g. an update to the same values); a changed row that is not
            // queued is an edit that will never reach the server.
            if (changed && !queued) || (!queued && post.outboxDepth != pre.outboxDepth) {
                let what =
                    changed
                    ? "its row change is durable but its outbox entry is not"
                    : "the outbox changed by \(post.outboxDepth - pre.outboxDepth)"
                failures.append(
                    Failure(
                        .lostEdit,
                        message: "\(label): \(ObligationID.lostEdit) killed inside the write of \(request.mutation.mutationID): \(what)",
                        body: "outbox depth before: \(pre.outboxDepth)\noutbox depth after: \(post.outboxDepth)"))
            }
            recordKill(
                step, failures, note: "the driver died at its after-local-write seam; the write was \(queued ? "durable" : "not durable")")
            guard failures.isEmpty else { return }
            if queued {
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "durable before the kill"))
            } else {
                await playWrite(step, local: local, name: name)
            }
        case .died(let reason, _), .answered(.broken(let reason)):
            stop(name, reason)
        case .answered(let other):
            cases.append(fail(name, .outcome, "\(label): \(ObligationID.outcome) the write was not stored: \(describe(other))"))
        case .killed:
            stop(name, "killed before the write was answered")
        }
        if stopped == nil { await refreshSnapshot(keys: [(request.mutation.table, request.mutation.pk)], name: name) }
    }

    /// after-push-sent: the mock holds the push request while the runner kills the driver, so the
    /// answer is lost; after the restart the same push is resent and answered.
    mutating func killPushSent(_ step: Step, exchange: RPCExchange, name: String) async {
        guard let pre = await state(name: name) else { return }
        let matched = mock.matchedCount
        mock.expect(.init(rpc: .push, golden: exchange.request, answer: .hold))
        switch await session.callKilling(.push, when: .mock(.matched, passes: matched, grace: .zero), mock: mock) {
        case .killed:
            let received = mock.take()
            var failures = requestFailures(step, rpc: .push, golden: exchange.request, received: received)
            guard await restart(name), let post = await state(name: name) else { return }
            failures += KillJudge.recoveryFailures(before: pre, after: post, at: "step \(step.n) \(step.label)")
            recordKill(step, failures, note: "killed while the mock held the push request; its answer is lost")
            guard stopped == nil else { return }
            judge.lastFault = (step.n, .push, received.first?.body)
            await playRPC(step, exchange: exchange, name: name)
        case .died(let reason, _), .answered(.broken(let reason)):
            stop(name, reason)
        case .answered(let other):
            mock.release()
            _ = mock.take()
            cases.append(fail(name, .outcome, "step \(step.n) \(step.label): \(ObligationID.outcome) no push was sent: \(describe(other))"))
            progress = .stopped("step \(step.n) failed")
        }
    }

    /// after-push-answered and before-closing-commit: the mock answers, and the runner kills the
    /// driver as soon as the answer is handed over (or the hooked driver dies at its seam). The
    /// recovered state is either the state before the step (the step is played again: the push is
    /// resent and answered again, as a server replays recorded verdicts) or the state after it.
    mutating func killAnswered(_ step: Step, exchange: RPCExchange, name: String) async {
        guard let pre = await state(name: name) else { return }
        let label = "step \(step.n) \(step.label)"
        let answered = mock.answeredCount
        mock.expect(.init(rpc: exchange.rpc, golden: exchange.request, answer: .reply(status: exchange.status, body: exchange.response)))
        let body: DriverRequest.Body = exchange.rpc == .push ? .push : .pull(PullOptions(maxPages: 1))
        // A driver started with the hook gets a grace period to die at its own seam once the answer is handed over.
        let grace: Duration = kill.hooked ? KillPlay.hookGrace : .zero
        let outcome = await session.callKilling(body, when: .mock(.answered, passes: answered, grace: grace), mock: mock)
        switch outcome {
        case .killed, .died:
            if case .died(let reason, let ending) = outcome, !diedAtHook(ending) {
                stop(name, reason)
                return
            }
            let received = mock.take()
            var failures = requestFailures(step, rpc: exchange.rpc, golden: exchange.request, received: received)
            guard await restart(name), let post = await state(name: name) else { return }
            let (applied, findings) = settled(step, exchange: exchange, pre: pre, post: post)
            failures += findings
            recordKill(
                step, failures,
                note: applied
                    ? "the answer was applied before the kill" : "the answer was not applied before the kill; the step is played again")
            guard stopped == nil else { return }
            if applied {
                kill.interruptedStepApplied()
                if exchange.rpc == .push {
                    kill.noteConsumed(exchange, step: step.n)
                } else {
                    judge.committedCursor = post.cursor
                    judge.snapshot = nil
                    judge.stagedKeys = []
                }
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "applied before the kill"))
            } else {
                judge.lastFault = exchange.rpc == .push ? (step.n, .push, received.first?.body) : nil
                await playRPC(step, exchange: exchange, name: name)
            }
        case .answered(.broken(let reason)):
            stop(name, reason)
        case .answered(let answer):
            // The driver answered before the kill landed: judge the step, then kill after it.
            var failures = requestFailures(step, rpc: exchange.rpc, golden: exchange.request, received: mock.take())
            failures +=
                exchange.rpc == .push
                ? judge.judgePush(step, exchange: exchange, answer: answer) : judge.judgePull(step, exchange: exchange, answer: answer)
            if exchange.rpc == .push && failures.isEmpty { kill.noteConsumed(exchange, step: step.n) }
            cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures)))
            guard failures.isEmpty, let seen = await state(name: name), await restart(name), let post = await state(name: name) else {
                return
            }
            recordKill(step, KillJudge.recoveryFailures(before: seen, after: post, at: label), note: "the driver answered before the kill")
        }
    }

    /// Whether the interrupted step's answer was applied before the kill, and what is wrong with the recovered state.
    func settled(_ step: Step, exchange: RPCExchange, pre: StateResult, post: StateResult) -> (Bool, [Failure]) {
        let label = "step \(step.n) \(step.label)"
        if exchange.rpc == .push {
            let count = exchange.request["batch"]?["mutations"]?.arrayValue?.count ?? 0
            if post.outboxDepth == pre.outboxDepth { return (false, KillJudge.recoveryFailures(before: pre, after: post, at: label)) }
            if post.outboxDepth == pre.outboxDepth - count { return (true, KillJudge.journalOnce(post, at: label)) }
            return (
                false,
                [
                    Failure(
                        .lostEdit,
                        message:
                            "\(label): \(ObligationID.lostEdit) after the restart the outbox holds \(post.outboxDepth) entries: neither before (\(pre.outboxDepth)) nor after (\(pre.outboxDepth - count)) the push's \(count) verdicts"
                    )
                ]
            )
        }
        let closing = exchange.response["cursor"]?.stringValue ?? judge.committedCursor
        if post.cursor == judge.committedCursor || closing == judge.committedCursor {
            var failures = KillJudge.recoveryFailures(before: pre, after: post, at: label)
            if let staged = evaluate(.noIntermediateCommit, in: post, step: step) {
                failures.append(
                    Failure(
                        .cursorAhead,
                        message: staged.message.replacingOccurrences(
                            of: ObligationID.checkpoint.rawValue, with: ObligationID.cursorAhead.rawValue), body: staged.body))
            }
            return (false, failures)
        }
        guard post.cursor == closing else {
            return (
                false,
                [
                    Failure(
                        .cursorAhead,
                        message:
                            "\(label): \(ObligationID.cursorAhead) after the restart the cursor is \(post.cursor): neither \(judge.committedCursor) nor \(closing)"
                    )
                ]
            )
        }
        var failures = KillJudge.journalOnce(post, at: label)
        if let missing = missingTransferRow(upTo: step.n, in: post) {
            failures.append(
                Failure(
                    .cursorAhead,
                    message:
                        "\(label): \(ObligationID.cursorAhead) after the restart the cursor \(closing) is committed but \(missing.table)/\(missing.pk) of its pages is not",
                    body: "expected: \(KillJudge.rowText(missing.row))\nactual: \(KillJudge.rowText(post.row(missing.table, missing.pk)))"))
        }
        return (true, failures)
    }
}
