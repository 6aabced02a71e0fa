import AccordDriver
import Checks
import Corpus
import KizunaWire
import Reports

extension ClientCasePlay {
    func judgePush(_ step: Step, exchange: RPCExchange, answer: Answer) -> [Failure] {
        let count = exchange.request["batch"]?["mutations"]?.arrayValue?.count ?? 0
        let signal = exchange.response["signal"]?["type"]?.stringValue
        guard case .result(.pushed(let result)) = answer else {
            return [outcomeFailure(step, "expected the push to be sent and answered, got \(describe(answer))")]
        }
        if result.outcome != .sent || result.mutations != count || result.signal?.rawValue != signal {
            let want = "sent \(count) mutation(s)" + (signal.map { " with signal \($0)" } ?? "")
            let got =
                "\(result.outcome.rawValue) \(result.mutations) mutation(s)" + (result.signal.map { " with signal \($0.rawValue)" } ?? "")
            return [outcomeFailure(step, "expected \(want), the driver reports \(got)")]
        }
        return []
    }

    mutating func judgePull(_ step: Step, exchange: RPCExchange, answer: Answer) -> [Failure] {
        let response = exchange.response
        let signal = response["signal"]?["type"]?.stringValue
        let hasMore = response["has_more"] == .bool(true)
        let expected: PullOutcome = signal != nil ? .signal : (hasMore ? .staged : .closed)
        guard case .result(.pulled(let result)) = answer else {
            return [outcomeFailure(step, "expected the pull to end \(expected.rawValue), got \(describe(answer))")]
        }
        var failures: [Failure] = []
        if result.outcome != expected || result.signal?.rawValue != signal {
            let got = result.outcome.rawValue + (result.signal.map { " \($0.rawValue)" } ?? "")
            failures.append(
                outcomeFailure(
                    step, "expected the pull to end \(expected.rawValue)\(signal.map { " \($0)" } ?? ""), the driver reports \(got)"))
        }
        switch expected {
        case .closed:
            committedCursor = response["cursor"]?.stringValue ?? committedCursor
            snapshot = nil
            stagedKeys = []
        case .staged:
            for list in ["rows", "tombstones"] {
                for entry in response[list]?.arrayValue ?? [] {
                    if let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue { stagedKeys.append((table, pk)) }
                }
            }
        case .signal, .blocked:
            snapshot = nil
            stagedKeys = []
        }
        if result.cursor != committedCursor {
            failures.append(
                checkpointFailure(
                    step, "the pull reports the durable cursor \(result.cursor); the last committed checkpoint is \(committedCursor)"))
        }
        return failures
    }

    /// A response the client must refuse: the code, and no change to the state.
    mutating func refusal(_ step: Step, answer: Answer, expected: String, before: StateResult?, name: String) async -> [Failure] {
        guard case .failure(let failure) = answer, failure.code == expected else {
            return [
                Failure(
                    .wireStrict,
                    message:
                        "step \(step.n) \(step.label): \(ObligationID.wireStrict) the response breaks the wire contract and must be refused with \(expected); the driver answered \(describe(answer))"
                )
            ]
        }
        guard let before, let after = await state(name: name) else { return [] }
        if before.rows != after.rows || before.cursor != after.cursor || before.outboxDepth != after.outboxDepth {
            return [
                Failure(
                    .wireStrict,
                    message:
                        "step \(step.n) \(step.label): \(ObligationID.wireStrict) the refused response changed the client's rows, cursor or outbox"
                )
            ]
        }
        return []
    }

    func outcomeFailure(_ step: Step, _ text: String) -> Failure {
        Failure(.outcome, message: "step \(step.n) \(step.label): \(ObligationID.outcome) \(text)")
    }

    func checkpointFailure(_ step: Step, _ text: String) -> Failure {
        Failure(.checkpoint, message: "step \(step.n) \(step.label): \(ObligationID.checkpoint) \(text)")
    }

    func describe(_ answer: Answer) -> String {
        switch answer {
        case .result(let result):
            "a \(result.op.rawValue) result \(CanonicalJSON.compact(DriverResponse(id: nil, result: result).json["result"] ?? .null))"
        case .failure(let failure): "the error \(failure)"
        case .broken(let reason): reason
        }
    }

    /// Records a broken driver at a step and stops the case.
    mutating func stop(_ name: String, _ reason: String) {
        cases.append(fail(name, .driver, "\(name): \(ObligationID.driver) \(reason)"))
        stopped = "the driver failed at \(name)"
    }

    /// Asks the driver for its state; a failure is recorded against the step.
    mutating func state(name: String) async -> StateResult? {
        switch await session.call(.state(StateOptions())) {
        case .result(.state(let state)):
            depth = state.outboxDepth
            kill?.observe(state)
            return state
        case .broken(let reason):
            stop(name, reason)
        case let other:
            cases.append(fail(name, .driver, "\(name): \(ObligationID.driver) state failed: \(describe(other))"))
            stopped = "state failed at \(name)"
        }
        return nil
    }
}
