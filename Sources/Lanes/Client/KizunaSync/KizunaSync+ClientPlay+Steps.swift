import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

extension KizunaSync.ClientPlay {
    mutating func play(_ step: Step, name: String) async {
        if case .rpc(let exchange) = step.action, exchange.isAnotherClient(than: transcript.context) { return }
        if step.isClientVisible(to: transcript.context) { reportStrays(before: name) }
        if await Wrapper.play(step, name: name, in: &self) { return }
        switch step.action {
        case .server, .reap:
            return
        case .local(let local):
            await playWrite(step, local: local, name: name)
        case .rpc(let exchange):
            await playRPC(step, exchange: exchange, name: name)
        case .fault(let fault):
            await playFault(step, fault: fault, name: name)
        case .assert(let checks):
            guard let state = await state(name: name) else { return }
            let failures = checks.compactMap { evaluate($0, in: state, step: step) }
            cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures)))
        }
    }

    mutating func playWrite(_ step: Step, local: LocalWrite, name: String) async {
        guard let request = plan.writes[step.n] else { return }
        guard let expected = local.expectError else {
            let answer = await session.call(.write(request))
            if refusedAsUnsupported(answer, name: name) { return }
            switch answer {
            case .result(.written(let result)):
                if let depth, result.outboxDepth != depth + 1 {
                    cases.append(
                        fail(
                            name, .outcome,
                            "step \(step.n) local: \(ObligationID.outcome) the outbox depth went from \(depth) to \(result.outboxDepth), not \(depth + 1)"
                        ))
                } else {
                    cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "outbox depth \(result.outboxDepth)"))
                }
                depth = result.outboxDepth
                await refreshSnapshot(keys: [(request.mutation.table, request.mutation.pk)], name: name)
            case .broken(let reason):
                stop(name, reason)
            default:
                cases.append(
                    fail(name, .outcome, "step \(step.n) local: \(ObligationID.outcome) the write was not stored: \(describe(answer))"))
            }
            return
        }
        guard let before = await state(name: name) else { return }
        let answer = await session.call(.write(request))
        switch answer {
        case .failure(let failure) where failure.code == expected:
            guard let after = await state(name: name) else { return }
            if after.outboxDepth != before.outboxDepth || after.rows != before.rows || after.cursor != before.cursor {
                cases.append(
                    fail(
                        name, .expectError,
                        "step \(step.n) local: \(ObligationID.expectError) the refused write changed the store (outbox depth \(before.outboxDepth) → \(after.outboxDepth), rows \(before.rows == after.rows ? "unchanged" : "changed"))"
                    ))
                return
            }
            cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "refused with \(expected)"))
        case .broken(let reason):
            stop(name, reason)
        default:
            if case .result(.written(let result)) = answer { depth = result.outboxDepth }
            cases.append(
                fail(
                    name, .expectError,
                    "step \(step.n) local: \(ObligationID.expectError) expected the write to be refused with \(expected), got \(describe(answer))"
                ))
        }
    }

    mutating func playRPC(_ step: Step, exchange: RPCExchange, name: String) async {
        let startsTransfer = exchange.rpc == .pull && exchange.response["has_more"] == .bool(true) && judge.snapshot == nil
        let before: StateResult?
        if startsTransfer || exchange.expectError != nil {
            guard let state = await state(name: name) else { return }
            before = state
            if startsTransfer { judge.snapshot = state }
        } else {
            before = nil
        }
        mock.expect(.init(rpc: exchange.rpc, golden: exchange.request, answer: .reply(status: exchange.status, body: exchange.response)))
        let answer = await session.call(exchange.rpc == .push ? .push : .pull(PullOptions(maxPages: 1)))
        if case .broken(let reason) = answer {
            stop(name, reason)
            return
        }
        let received = mock.take()
        if exchange.expectError == nil, refusedAsUnsupported(answer, name: name, received: received) { return }
        var failures = requestFailures(step, rpc: exchange.rpc, golden: exchange.request, received: received)
        if let expected = exchange.expectError {
            failures += await refusal(step, answer: answer, expected: expected, before: before, name: name)
        } else if !exchange.isAnswer {
            let expected =
                PermanentCodes.isPermanent(exchange.response["code"]?.stringValue, status: exchange.status)
                ? "PERMANENT_TRANSPORT" : "REMOTE"
            if case .failure(let failure) = answer, failure.code == expected {
            } else {
                failures.append(
                    judge.outcomeFailure(step, "expected the error \(expected) for HTTP \(exchange.status), got \(describe(answer))"))
            }
        } else if exchange.rpc == .push {
            failures += judge.judgePush(step, exchange: exchange, answer: answer)
            if failures.isEmpty { wrapper.consumed(exchange, step: step.n) }
        } else {
            failures += judge.judgePull(step, exchange: exchange, answer: answer)
        }
        judge.lastFault = nil
        if exchange.rpc == .push {
            depth = nil
            let keys = (exchange.request["batch"]?["mutations"]?.arrayValue ?? []).compactMap { mutation -> (table: String, pk: String)? in
                guard let table = mutation["table"]?.stringValue, let pk = mutation["pk"]?.stringValue else { return nil }
                return (table, pk)
            }
            await refreshSnapshot(keys: keys, name: name)
        }
        if exchange.response["signal"]?["type"] == .string("RESET_REQUIRED") { judge.softBlocked = true }
        var result = CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures))
        if let sent = received.first(where: { $0.rpc == exchange.rpc })?.body { result.observed = CaseResult.Observed(request: sent) }
        cases.append(result)
        let requestRules = Set([ObligationID.request, .resend, .atomicRun].map { RuleID($0.rawValue) })
        if failures.contains(where: { requestRules.contains($0.ruleID) }) {
            progress = .stopped("step \(step.n) sent another request than the golden one")
            return
        }
        if exchange.response["signal"]?["type"] == .string("RESET_REQUIRED"), failures.isEmpty, exchange.expectError == nil {
            await probeSoftBlock(after: step)
        }
    }

    mutating func playFault(_ step: Step, fault: TransportFault, name: String) async {
        mock.expect(.init(rpc: fault.target, golden: fault.request, answer: .drop))
        let answer = await session.call(fault.target == .push ? .push : .pull(PullOptions(maxPages: 1)))
        if case .broken(let reason) = answer {
            stop(name, reason)
            return
        }
        let received = mock.take()
        if refusedAsUnsupported(answer, name: name, received: received) { return }
        var failures = requestFailures(step, rpc: fault.target, golden: fault.request, received: received)
        if case .failure(let failure) = answer, failure.code == "REMOTE" {
        } else {
            failures.append(judge.outcomeFailure(step, "a \(fault.fault.rawValue) answers REMOTE, got \(describe(answer))"))
        }
        if case .result(.pulled(let result)) = answer, result.cursor != judge.committedCursor {
            failures.append(
                judge.checkpointFailure(
                    step, "the cursor moved to \(result.cursor) on a failed pull; committed is \(judge.committedCursor)"))
        }
        judge.lastFault = (step.n, fault.target, fault.target == .push ? received.first?.body : nil)
        cases.append(
            CaseResult(
                name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures),
                note: "the mock read the request and closed the connection without an answer"))
        if !failures.isEmpty { progress = .stopped("step \(step.n) failed") }
    }

    /// The requests the mock received for a step, judged against the golden request (and by the wrapper).
    func requestFailures(_ step: Step, rpc: RPCKind, golden: JSONValue?, received: [KizunaSync.Mock.Received]) -> [Failure] {
        let wrapped = wrapper.requestFailures(step, rpc: rpc, golden: golden, received: received)
        return judge.requestFailures(step, rpc: rpc, golden: golden, received: received, wrapped: wrapped)
    }

    /// Requests that reached the mock while no step expected one fail the step they followed.
    mutating func reportStrays(before name: String) {
        let strays = mock.take()
        guard !strays.isEmpty else { return }
        let rule: ObligationID = judge.softBlocked ? .softBlock : .request
        let when = lastStep.map { "after \($0)" } ?? "before the first step"
        cases.append(
            fail(
                "\(lastStep ?? name) unexpected RPC", rule,
                "\(lastStep ?? name): \(rule) \(strays.count) RPC(s) \(when) that no step asked for\(judge.softBlocked ? " while soft-blocked" : "")",
                body: strays.map(\.summary).joined(separator: "\n")))
    }
}
