import AccordDriver
import Checks
import Corpus
import KizunaWire
import Reports

extension KizunaSync.ClientPlay {
    /// Judges one transcript check against the driver's state; events the wrapper excuses are not judged.
    func evaluate(_ check: Check, in state: StateResult, step: Step?) -> Failure? {
        let wrapper = self.wrapper
        return judge.evaluate(check, in: state, step: step) { wrapper.excuses(event: $0) }
    }

    /// One state read, and a test case per postcondition.
    mutating func postconditions() async {
        let checks = transcript.postconditions
        guard !checks.isEmpty else { return }
        var state: StateResult?
        if stopped == nil { state = await self.state(name: "postconditions") }
        for (index, check) in checks.enumerated() {
            let name = "postcondition \(index + 1) \(check.summary)"
            guard let state else {
                cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("not run: \(stopped ?? "no state")")))
                continue
            }
            let failure = evaluate(check, in: state, step: nil)
            cases.append(CaseResult(name: name, classname: classname, outcome: failure.map { .failed([$0]) } ?? .passed))
        }
    }

    /// After RESET_REQUIRED the client must stay quiet: the event was raised once, and a push
    /// and a pull make no request and answer blocked.
    mutating func probeSoftBlock(after step: Step) async {
        let name = "step \(step.n) soft-block probe"
        guard let state = await state(name: name) else { return }
        var failures: [Failure] = []
        let raised = state.events.filter { $0.code == "RESET_REQUIRED" }.count
        if raised != 1 {
            failures.append(
                Failure(
                    .softBlock, message: "\(name): \(ObligationID.softBlock) RESET_REQUIRED was raised \(raised) times, not once"))
        }
        // A driver that declared its parts is probed only with the ops it plays.
        for op in [DriverOp.push, .pull] where declaredParts?.contains(op.rawValue) ?? true {
            mock.expect(nil)
            let answer = await session.call(op == .push ? .push : .pull(PullOptions(maxPages: 1)))
            if case .broken(let reason) = answer {
                stop(name, reason)
                return
            }
            if let request = mock.take().first {
                failures.append(
                    Failure(
                        .softBlock,
                        message:
                            "\(name): \(ObligationID.softBlock) after RESET_REQUIRED at step \(step.n) the client sent another RPC (\(op.rawValue))",
                        body: "actual: \(request.summary)"))
                continue
            }
            switch answer {
            case .result(.pushed(let result)) where result.outcome == .blocked || (result.outcome == .nothing && state.outboxDepth == 0):
                break
            case .result(.pulled(let result)) where result.outcome == .blocked:
                break
            default:
                failures.append(
                    Failure(
                        .softBlock,
                        message:
                            "\(name): \(ObligationID.softBlock) a \(op.rawValue) after RESET_REQUIRED at step \(step.n) answers blocked, got \(describe(answer))"
                    ))
            }
        }
        cases.append(
            CaseResult(
                name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures),
                note: "the event was raised once; a push and a pull after the signal made no request"))
        if !failures.isEmpty { progress = .stopped("the soft block did not hold after step \(step.n)") }
    }

    /// While a transfer is staged, rows the client itself changes (a write, a push's verdicts)
    /// may legitimately change; their snapshot is refreshed so only staged rows are judged.
    mutating func refreshSnapshot(keys: [(table: String, pk: String)], name: String) async {
        guard var snapshot = judge.snapshot, !keys.isEmpty, let now = await state(name: name) else { return }
        for key in keys {
            var table = snapshot.rows[key.table] ?? [:]
            table[key.pk] = now.row(key.table, key.pk)
            snapshot.rows[key.table] = table
        }
        judge.snapshot = snapshot
    }
}
