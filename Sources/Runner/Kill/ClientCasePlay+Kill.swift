import AccordDriver
import Checks
import Corpus
import Foundation
import KizunaWire
import Reports

extension ClientCasePlay {
    /// Plays the step the kill point applies to.
    mutating func playKilled(_ step: Step, name: String) async {
        guard let point = kill?.point else { return }
        kill?.fired = true
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
        (kill?.hooked ?? false) && (ending?.isKill ?? false)
    }

    /// SIGKILLs the driver, starts a fresh one (no hook) and opens the same store while the mock
    /// answers nothing; false (the case stopped) when the new driver does not come up.
    mutating func restart(_ name: String) async -> Bool {
        await session.kill()
        mock.release()
        guard var state = kill, let open = state.open else { return false }
        state.carryEvents()
        state.restarted = true
        kill = state
        mock.expect(nil)
        do throws(RunError) {
            session.replace(with: try state.relaunch())
        } catch {
            stop(name, "the driver did not restart after the kill: \(error)")
            return false
        }
        switch await session.call(.hello(protocolVersion: DriverRequest.protocolVersion), timeout: timeout) {
        case .result(.hello): break
        case let other:
            stop(name, "hello after the restart: \(describe(other))")
            return false
        }
        switch await session.call(.open(open)) {
        case .result: return true
        case let other:
            stop(name, "open of the same store after the restart: \(describe(other))")
            return false
        }
    }

    /// The KM findings of a restart: the recovered state must be the durable state before the kill.
    func recoveryFailures(before: StateResult, after: StateResult, at label: String) -> [Failure] {
        var failures: [Failure] = []
        if after.cursor != before.cursor {
            failures.append(
                Failure(
                    .cursorAhead,
                    message:
                        "\(label): \(ObligationID.cursorAhead) after the restart the cursor is \(after.cursor); durable before the kill: \(before.cursor)",
                    body: "expected: \(before.cursor)\nactual: \(after.cursor)"))
        }
        if after.outboxDepth != before.outboxDepth {
            failures.append(
                Failure(
                    .lostEdit,
                    message:
                        "\(label): \(ObligationID.lostEdit) after the restart the outbox holds \(after.outboxDepth) entries; durable before the kill: \(before.outboxDepth)",
                    body: "expected: \(before.outboxDepth)\nactual: \(after.outboxDepth)"))
        }
        if let key = Self.firstRowDifference(before, after) {
            failures.append(
                Failure(
                    .lostEdit,
                    message:
                        "\(label): \(ObligationID.lostEdit) after the restart \(key.table)/\(key.pk) is not the row that was durable before the kill",
                    body: "expected: \(Self.rowText(before.row(key.table, key.pk)))\nactual: \(Self.rowText(after.row(key.table, key.pk)))")
            )
        }
        let lost = Self.journalKeys(before).filter { !Self.journalKeys(after).contains($0) }
        if !lost.isEmpty {
            failures.append(
                Failure(
                    .journalOnce,
                    message:
                        "\(label): \(ObligationID.journalOnce) after the restart the journal lacks \(lost.count) entry(ies) that were durable before the kill",
                    body: "expected: \(lost.joined(separator: ", "))"))
        }
        return failures + journalOnce(after, at: label)
    }

    /// KM-JOURNAL-ONCE: no rejection (mutation id and reason) is journaled twice.
    func journalOnce(_ state: StateResult, at label: String) -> [Failure] {
        var seen = Set<String>()
        var twice: [String] = []
        for key in Self.journalKeys(state) where !seen.insert(key).inserted { twice.append(key) }
        guard !twice.isEmpty else { return [] }
        return [
            Failure(
                .journalOnce, message: "\(label): \(ObligationID.journalOnce) journaled more than once: \(twice.joined(separator: ", "))")
        ]
    }

    static func journalKeys(_ state: StateResult) -> [String] {
        state.journal.compactMap { entry in entry.mutationID.map { "\($0) \(entry.reason)" } }
    }

    static func firstRowDifference(_ before: StateResult, _ after: StateResult) -> (table: String, pk: String)? {
        for table in Set(before.rows.keys).union(after.rows.keys).sorted() {
            let keys = Set((before.rows[table] ?? [:]).keys).union((after.rows[table] ?? [:]).keys)
            for pk in keys.sorted() where before.row(table, pk) != after.row(table, pk) { return (table, pk) }
        }
        return nil
    }

    static func rowText(_ row: JSONObject?) -> String { row.map { CanonicalJSON.compact(.object($0)) } ?? "absent" }

    /// The kill's own test case: passed with a note, or failed with its findings.
    mutating func recordKill(_ step: Step, _ failures: [Failure], note: String) {
        let name = kill?.caseName(step: step.n) ?? "step \(step.n) kill"
        cases.append(CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures), note: note))
        if !failures.isEmpty { stopped = "the state after the kill at step \(step.n) is not the durable state" }
    }

    /// After the postconditions of a killed case: the journal holds each rejection once.
    mutating func killFinalChecks() async {
        guard let kill, kill.fired, stopped == nil, let state = await state(name: "kill: journal") else { return }
        let failures = journalOnce(state, at: "after the case")
        cases.append(
            CaseResult(
                name: "kill @ \(kill.point.rawValue): journal once", classname: classname,
                outcome: failures.isEmpty ? .passed : .failed(failures)))
    }
}
