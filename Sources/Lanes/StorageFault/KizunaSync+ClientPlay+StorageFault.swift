import AccordDriver
import Checks
import Corpus
import HTTP
import KizunaWire
import Reports

// The storage-fault matrix's steps. Like the kill matrix's, they exist only on a play wrapped in
// `StorageFaultPlay`; `StorageFaultPlay.play` is their entry.
extension KizunaSync.ClientPlay where Wrapper == StorageFaultPlay {
    /// The matrix's state, which its wrapper owns.
    var faulting: StorageFaultState {
        get { wrapper.state }
        set { wrapper.state = newValue }
    }

    /// Plays the step the point applies to: the command under failing writes, the judging, then the step the ordinary way.
    mutating func playFaulted(_ step: Step, name: String) async {
        switch (faulting.point, step.action) {
        case (.localWrite, .local(let local)): await failWrite(step, local: local, name: name)
        case (.identityChange, .local(let local)): await failIdentity(step, local: local, name: name)
        case (_, .rpc(let exchange)): await failRPC(step, exchange: exchange, name: name)
        default: await play(step, name: name)
        }
    }

    /// local-write: the write's commit fails; it must answer STORE and leave the store as it was. Then it is written again.
    mutating func failWrite(_ step: Step, local: LocalWrite, name: String) async {
        guard let request = plan.writes[step.n], let pre = await state(name: name) else { return }
        let call = await session.callFailing(.write(request), failures: failureSwitch(), atRequest: false)
        let touched: Set = [StorageFaultJudge.RowKey(table: request.mutation.table, pk: request.mutation.pk)]
        guard await judgeFault(step, call, before: pre, touched: touched, requests: [], name: name) else { return }
        await playWrite(step, local: local, name: name)
    }

    /// in-flight-push, verdict-apply, staged-page, closing-commit: the RPC's command runs with failing
    /// writes (from its start, or from the moment the mock holds its request); then the step is played again.
    mutating func failRPC(_ step: Step, exchange: RPCExchange, name: String) async {
        guard let pre = await state(name: name) else { return }
        let point = faulting.point
        let failures = failureSwitch()
        let answer: KizunaSync.Mock.Answer =
            point.armsAtRequest
            ? .replyAfter(status: exchange.status, body: exchange.response, before: { failures.switchOnBlocking() })
            : .reply(status: exchange.status, body: exchange.response)
        mock.expect(.init(rpc: exchange.rpc, golden: exchange.request, answer: answer))
        let body: DriverRequest.Body = exchange.rpc == .push ? .push : .pull(PullOptions(maxPages: 1))
        let call = await session.callFailing(body, failures: failures, atRequest: point.armsAtRequest)
        mock.expect(nil)
        let received = mock.take()
        // A push whose in-flight record could not be written is right not to send it.
        let requests =
            received.isEmpty && !point.armsAtRequest
            ? [] : requestFailures(step, rpc: exchange.rpc, golden: exchange.request, received: received)
        guard await judgeFault(step, call, before: pre, touched: Self.touched(by: exchange), requests: requests, name: name) else {
            return
        }
        if exchange.rpc == .push, let sent = received.first?.body { judge.lastFault = (step.n, .push, sent) }
        await playRPC(step, exchange: exchange, name: name)
    }

    /// identity-change: after the write, the store is opened under another user and client while its
    /// writes fail (the open must not succeed), then under its own identity, where it must show the
    /// state from before.
    mutating func failIdentity(_ step: Step, local: LocalWrite, name: String) async {
        await playWrite(step, local: local, name: name)
        guard stopped == nil, let own = faulting.open, let pre = await state(name: name) else { return }
        var other = own
        other.userID = StorageFaultPlay.otherUser
        other.clientID = StorageFaultPlay.otherClient
        other.jwt = KizunaSync.jwtKey.mint(JWTClaims(subject: other.userID, sessionID: other.clientID))
        mock.expect(nil)
        guard await restartDriver(name, open: nil) else { return }
        let call = await session.callFailing(.open(other), failures: failureSwitch(), atRequest: false)
        let label = "step \(step.n) \(step.label) (open under another identity)"
        var failures = StorageFaultJudge.answerFailures(call.answer, point: .identityChange, at: label)
        if let problem = call.problem { return errored(step, "libfiu: \(problem)") }
        if case .broken(let reason) = call.answer { return record(step, failures, note: reason) }
        let reopened: Bool
        if case .failure = call.answer, faulting.variant.continuation == .sameProcess {
            // After a failed open no store is open: the same process opens its own identity.
            reopened = await reopen(own, name: name, moment: "after the storage fault")
        } else {
            reopened = await restartDriver(name, open: own)
        }
        guard reopened, let post = await state(name: name) else { return }
        failures += StorageFaultJudge.stateFailures(before: pre, after: post, touched: [], at: "step \(step.n) \(step.label) (reopened)")
        record(step, failures, note: "open under another identity: \(describe(call.answer))")
    }

    /// Judges the command run under failing writes and the state after it (and, in the restart
    /// variant, after a restart); true when the case goes on with the step played again.
    mutating func judgeFault(
        _ step: Step, _ call: DriverSession.FailedCall, before pre: StateResult, touched: Set<StorageFaultJudge.RowKey>,
        requests: [Failure], name: String
    ) async -> Bool {
        let label = "step \(step.n) \(step.label)"
        if case .broken(let reason) = call.answer {
            record(step, requests + StorageFaultJudge.answerFailures(call.answer, point: faulting.point, at: label), note: reason)
            return false
        }
        if let problem = call.problem {
            errored(step, "libfiu: \(problem)")
            return false
        }
        guard call.armed else {
            let failure = Failure(
                .request,
                message:
                    "\(label): \(ObligationID.request) the driver answered \(describe(call.answer)) before its request reached the mock; the point fails the writes from that request on"
            )
            record(step, requests + [failure], note: "the failures were never switched on")
            return false
        }
        var failures = requests + StorageFaultJudge.answerFailures(call.answer, point: faulting.point, at: label)
        guard let after = await state(name: name) else { return false }
        failures += StorageFaultJudge.stateFailures(before: pre, after: after, touched: touched, at: "\(label) (after the fault)")
        var note = "\(describe(call.answer)) while writes failed with \(faulting.variant.errno.rawValue.uppercased())"
        if faulting.variant.continuation == .restart {
            guard let open = faulting.open, await restartDriver(name, open: open), let reopened = await state(name: name) else {
                return false
            }
            failures += StorageFaultJudge.stateFailures(before: pre, after: reopened, touched: touched, at: "\(label) (after the restart)")
            note += "; restarted on the same store"
        }
        record(step, failures, note: note + "; the step is played again")
        return failures.isEmpty
    }

    /// Closes the driver, starts a fresh one under libfiu, says hello and (when given) opens `open`; false when it failed (the case stopped).
    mutating func restartDriver(_ name: String, open: OpenRequest?) async -> Bool {
        if case .result = await session.call(.close) { _ = await session.finish(timeout: .seconds(5)) } else { await session.kill() }
        faulting.carryEvents()
        return await relaunch(name, with: faulting.relaunch, open: open, moment: "after the storage fault")
    }

    /// The fault's own test case: passed with a note, or failed with its findings (which stop the case).
    mutating func record(_ step: Step, _ failures: [Failure], note: String) {
        let name = faulting.caseName(step: step.n)
        cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures), note: note))
        if !failures.isEmpty { progress = .stopped("the storage fault at step \(step.n) was not handled") }
    }

    /// libfiu could not be switched: the fault's test case errored, and the case stops.
    mutating func errored(_ step: Step, _ reason: String) {
        cases.append(CaseResult(name: faulting.caseName(step: step.n), classname: classname, outcome: .errored(reason)))
        progress = .stopped(reason)
    }

    /// A switch for the failure points of the running driver, with the variant's errno.
    func failureSwitch() -> FailureSwitch {
        FailureSwitch(faulting.failures, errno: faulting.variant.errno, group: session.channel.processGroup ?? 0)
    }

    /// The rows a push's mutations or a page's rows and tombstones would change.
    static func touched(by exchange: RPCExchange) -> Set<StorageFaultJudge.RowKey> {
        let items =
            (exchange.request["batch"]?["mutations"]?.arrayValue ?? []) + (exchange.response["rows"]?.arrayValue ?? [])
            + (exchange.response["tombstones"]?.arrayValue ?? [])
        return Set(
            items.compactMap { item in
                guard let table = item["table"]?.stringValue, let pk = item["pk"]?.stringValue else { return nil }
                return StorageFaultJudge.RowKey(table: table, pk: pk)
            })
    }
}
