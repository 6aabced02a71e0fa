import AccordDriver
import Checks
import Corpus
import KizunaWire
import Reports

extension KizunaSync.ClientPlay {
    /// What an answer was, in words for a finding.
    func describe(_ answer: Answer) -> String { KizunaSync.ClientJudge.describe(answer) }

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

    /// Records a broken driver at a step and stops the case.
    /// Stops the case as unsupported when a driver that declared no `parts` refused the step's
    /// op with DRIVER_UNSUPPORTED (a part it does not play) or its engine with LOCAL_UNSUPPORTED
    /// (a construct its local subset cannot answer, spec/engine-errors.json), where the golden
    /// expects no error and no request reached the mock: the step and the rest are skipped with
    /// the reason, and the suite counts as skipped (`SuiteResult.unsupported`), not passed. A
    /// driver that declared its parts gets no such pass: a refusal of a part it declared fails.
    /// - Returns: whether it did.
    mutating func refusedAsUnsupported(_ answer: DriverSession.Answer, name: String, received: [KizunaSync.Mock.Received] = []) -> Bool {
        guard declaredParts == nil, received.isEmpty, case .failure(let failure) = answer,
            failure.code == DriverErrorKind.unsupported.protocolCode || failure.code == EngineErrorCode.localUnsupported.rawValue
        else { return false }
        let reason = "unsupported: the driver refused \(name) with \(failure.code): \(failure.message)"
        cases.append(CaseResult(name: name, classname: classname, outcome: .skipped(reason)))
        progress = .stopped(reason)
        unsupported = reason
        return true
    }

    mutating func stop(_ name: String, _ reason: String) {
        cases.append(fail(name, .driver, "\(name): \(ObligationID.driver) \(reason)"))
        progress = .stopped("the driver failed at \(name)")
    }

    /// Asks the driver for its state; a failure is recorded against the step.
    mutating func state(name: String) async -> StateResult? {
        switch await session.call(.state(StateOptions())) {
        case .result(.state(let state)):
            depth = state.outboxDepth
            wrapper.observed(state)
            return state
        case .broken(let reason):
            stop(name, reason)
        case let other:
            cases.append(fail(name, .driver, "\(name): \(ObligationID.driver) state failed: \(describe(other))"))
            progress = .stopped("state failed at \(name)")
        }
        return nil
    }
}
