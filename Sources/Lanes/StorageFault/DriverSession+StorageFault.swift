import AccordDriver

extension DriverSession {
    /// How a request sent with the store's writes failing ended.
    struct FailedCall {
        /// The driver's answer (or why there is none).
        var answer: Answer
        /// Whether the failures were switched on at all (a request that never reached the mock ran without them).
        var armed: Bool
        /// Why libfiu could not be switched, if it could not.
        var problem: String?
    }

    /// Sends a request while the driver's writes, fsyncs and renames fail: from before the request,
    /// or, when the mock switches `failures` on as the step's RPC arrives, from then. They are
    /// switched off as soon as the answer is in; `fiu-ctrl` is waited for each time, so nothing sleeps.
    mutating func callFailing(_ body: DriverRequest.Body, failures: FailureSwitch, atRequest: Bool) async -> FailedCall {
        if !atRequest { await failures.switchOn() }
        if case .broken(let problem) = failures.phase { return FailedCall(answer: .broken(problem), armed: false, problem: problem) }
        let answer = await call(body)
        if failures.phase == .switching {
            let problem = "the driver answered while fiu-ctrl was still switching the failures on (a loaded machine?)"
            return FailedCall(answer: answer, armed: false, problem: problem)
        }
        let armed = failures.phase == .on
        await failures.switchOff()
        if case .broken(let problem) = failures.phase {
            // A driver that died has no control pipe left: its answer says what happened.
            if case .broken = answer { return FailedCall(answer: answer, armed: armed, problem: nil) }
            return FailedCall(answer: answer, armed: armed, problem: problem)
        }
        return FailedCall(answer: answer, armed: armed, problem: nil)
    }
}
