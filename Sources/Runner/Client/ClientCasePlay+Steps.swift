import AccordDriver
import Corpus
import KizunaWire
import Reports

extension ClientCasePlay {
    mutating func play(_ step: Step, name: String) async {
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
        let answer = await call(.write(request))
        if let expected = local.expectError {
            switch answer {
            case .failure(let failure) where failure.code == expected:
                guard let state = await state(name: name) else { return }
                if let depth, state.outboxDepth != depth {
                    cases.append(
                        fail(
                            name, "CL-EXPECT-ERROR",
                            "step \(step.n) local: CL-EXPECT-ERROR the refused write changed the outbox depth from \(depth) to \(state.outboxDepth)"
                        ))
                    return
                }
                depth = state.outboxDepth
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "refused with \(expected)"))
            case .broken(let reason):
                stop(name, reason)
            default:
                cases.append(
                    fail(
                        name, "CL-EXPECT-ERROR",
                        "step \(step.n) local: CL-EXPECT-ERROR expected the write to be refused with \(expected), got \(describe(answer))"))
            }
            return
        }
        switch answer {
        case .result(.written(let result)):
            if let depth, result.outboxDepth != depth + 1 {
                cases.append(
                    fail(
                        name, "CL-OUTCOME",
                        "step \(step.n) local: CL-OUTCOME the outbox depth went from \(depth) to \(result.outboxDepth), not \(depth + 1)"))
            } else {
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "outbox depth \(result.outboxDepth)"))
            }
            depth = result.outboxDepth
        case .broken(let reason):
            stop(name, reason)
        default:
            cases.append(fail(name, "CL-OUTCOME", "step \(step.n) local: CL-OUTCOME the write was not stored: \(describe(answer))"))
        }
    }

    mutating func playRPC(_ step: Step, exchange: RPCExchange, name: String) async {
        let startsTransfer = exchange.rpc == .pull && exchange.response["has_more"] == .bool(true) && snapshot == nil
        let before: StateResult?
        if startsTransfer || exchange.expectError != nil {
            guard let state = await state(name: name) else { return }
            before = state
            if startsTransfer { snapshot = state }
        } else {
            before = nil
        }
        mock.expect(.init(rpc: exchange.rpc, golden: exchange.request, answer: .reply(status: exchange.status, body: exchange.response)))
        let answer = await call(exchange.rpc == .push ? .push : .pull(PullOptions(maxPages: 1)))
        if case .broken(let reason) = answer {
            stop(name, reason)
            return
        }
        var failures = requestFailures(step, rpc: exchange.rpc, golden: exchange.request)
        if let expected = exchange.expectError {
            failures += await refusal(step, answer: answer, expected: expected, before: before, name: name)
        } else if !exchange.isAnswer {
            let expected =
                PermanentCodes.isPermanent(exchange.response["code"]?.stringValue, status: exchange.status)
                ? "PERMANENT_TRANSPORT" : "REMOTE"
            if case .failure(let failure) = answer, failure.code == expected {
            } else {
                failures.append(outcomeFailure(step, "expected the error \(expected) for HTTP \(exchange.status), got \(describe(answer))"))
            }
        } else if exchange.rpc == .push {
            failures += judgePush(step, exchange: exchange, answer: answer)
        } else {
            failures += judgePull(step, exchange: exchange, answer: answer)
        }
        lastFault = nil
        if exchange.rpc == .push { depth = nil }
        cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures)))
        if failures.contains(where: { $0.ruleID == "CL-REQUEST" || $0.ruleID == "CL-RESEND" || $0.ruleID == "CL-ATOMIC-RUN" }) {
            stopped = "step \(step.n) sent another request than the golden one"
            return
        }
        if exchange.response["signal"]?["type"] == .string("RESET_REQUIRED"), failures.isEmpty, exchange.expectError == nil {
            await probeSoftBlock(after: step)
        }
    }

    mutating func playFault(_ step: Step, fault: TransportFault, name: String) async {
        mock.expect(.init(rpc: fault.target, golden: fault.request, answer: .drop))
        let answer = await call(fault.target == .push ? .push : .pull(PullOptions(maxPages: 1)))
        if case .broken(let reason) = answer {
            stop(name, reason)
            return
        }
        var failures = requestFailures(step, rpc: fault.target, golden: fault.request)
        if case .failure(let failure) = answer, failure.code == "REMOTE" {
        } else {
            failures.append(outcomeFailure(step, "a \(fault.fault.rawValue) answers REMOTE, got \(describe(answer))"))
        }
        if case .result(.pulled(let result)) = answer, result.cursor != committedCursor {
            failures.append(
                checkpointFailure(step, "the cursor moved to \(result.cursor) on a failed pull; committed is \(committedCursor)"))
        }
        lastFault = step.n
        cases.append(
            CaseResult(
                name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures),
                note: "the mock read the request and closed the connection without an answer"))
        if !failures.isEmpty { stopped = "step \(step.n) failed" }
    }

    /// The request the mock received for a step, judged against the golden request.
    func requestFailures(_ step: Step, rpc: RPCKind, golden: JSONValue?) -> [Failure] {
        let received = mock.received
        guard let first = received.first else {
            return [
                Failure(
                    ruleID: "CL-REQUEST", message: "step \(step.n) \(step.label): CL-REQUEST no \(rpc.rawValue) request reached the server")
            ]
        }
        var failures: [Failure] = []
        if let mismatch = first.mismatch {
            let isAtomic = golden?["batch"]?["atomic"] == .bool(true)
            let underBatch = mismatch.pointer?.tokens.first == "batch"
            let rule = lastFault != nil ? "CL-RESEND" : (isAtomic && underBatch ? "CL-ATOMIC-RUN" : "CL-REQUEST")
            let after = lastFault.map { " (after the fault at step \($0))" } ?? ""
            failures.append(
                Failure(
                    ruleID: rule, message: "step \(step.n) \(step.label): \(rule) \(mismatch.message)\(after)",
                    body: "expected: \(mismatch.expected)\nactual: \(mismatch.actual)"))
        }
        if received.count > 1 {
            failures.append(
                Failure(
                    ruleID: "CL-REQUEST",
                    message: "step \(step.n) \(step.label): CL-REQUEST \(received.count) requests for one \(rpc.rawValue)",
                    body: received.map(\.summary).joined(separator: "\n")))
        }
        return failures
    }
}
