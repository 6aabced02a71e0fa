import AccordDriver
import Checks
import Corpus
import Foundation
import KizunaWire
import Reports

// The kill matrix's steps, restart and final check. They are written against the play they wrap
// (its session, mock and judge) but exist only on a play wrapped in `KillPlay`: the ordinary
// `KizunaSync.ClientPlay<Unwrapped>` has none of them, and `KillPlay.play`/`finish` are their entries.
extension KizunaSync.ClientPlay where Wrapper == KillPlay {
    /// Plays the step the kill point applies to.
    mutating func playKilled(_ step: Step, name: String) async {
        let point = kill.point
        kill.fire()
        switch (point, step.action) {
        case (.afterLocalWrite, .local(let local)): await killWrite(step, local: local, name: name)
        case (.identityChange, .local(let local)): await killIdentity(step, local: local, name: name)
        case (.afterPushSent, .rpc(let exchange)): await killPushSent(step, exchange: exchange, name: name)
        case (.afterPushAnswered, .rpc(let exchange)), (.beforeClosingCommit, .rpc(let exchange)):
            await killAnswered(step, exchange: exchange, name: name)
        case (.betweenPages, .rpc(let exchange)), (.softBlock, .rpc(let exchange)):
            await killAfterStep(step, exchange: exchange, name: name)
        default:
            await play(step, name: name)
        }
    }

    /// Whether a driver that died by itself honoured the `ACCORD_KILL_AT` hook: it died of SIGKILL while armed (or its
    /// shell wrapper exited with 128 + SIGKILL), as its exit status says.
    func diedAtHook(_ ending: DriverEnding?) -> Bool {
        kill.hooked && (ending?.isKill ?? false)
    }

    /// SIGKILLs the driver, starts a fresh one (no hook) and opens the same store while the mock
    /// answers nothing; false (the case stopped) when the new driver does not come up.
    mutating func restart(_ name: String) async -> Bool {
        await session.kill()
        mock.release()
        guard let open = kill.open else { return false }
        kill.restart()
        mock.expect(nil)
        return await relaunch(name, with: kill.relaunch, open: open, moment: "after the kill")
    }

    /// The kill's own test case: passed with a note, or failed with its findings.
    mutating func recordKill(_ step: Step, _ failures: [Failure], note: String) {
        let name = kill.caseName(step: step.n)
        cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures), note: note))
        if !failures.isEmpty { progress = .stopped("the state after the kill at step \(step.n) is not the durable state") }
    }

    /// After the postconditions of a killed case: the journal holds each rejection once.
    mutating func killFinalChecks() async {
        guard kill.fired, stopped == nil, let state = await state(name: "kill: journal") else { return }
        let failures = KillJudge.journalOnce(state, at: "after the case")
        cases.append(
            CaseResult(
                name: "kill @ \(kill.point.rawValue): journal once", classname: classname,
                outcome: failures.isEmpty ? .passed : .failed(failures)))
    }
}
