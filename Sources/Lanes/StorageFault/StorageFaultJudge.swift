import AccordDriver
import Checks
import KizunaWire
import Reports

/// The storage-fault matrix's pure findings (SF-…): the answer to the command that ran while the
/// driver's writes failed, and the state after it against the state before. No I/O; the play
/// reads the states and hands them over.
enum StorageFaultJudge {
    /// The engine code a failed store operation answers (spec/engine-errors.json).
    static let storeCode = "STORE"

    /// SF-FALSE-SUCCESS for an answer that reports success, SF-STORE-ERROR for a failure that is
    /// not `STORE` (or, refusing another identity, `STORE_UNAVAILABLE`), a protocol error, or no answer.
    static func answerFailures(_ answer: DriverSession.Answer, point: StorageFaultPoint, at label: String) -> [Failure] {
        let accepted: Set<String> = point == .identityChange ? [storeCode, "STORE_UNAVAILABLE"] : [storeCode]
        switch answer {
        case .result(let result):
            return [
                Failure(
                    .falseSuccess,
                    message:
                        "\(label): \(ObligationID.falseSuccess) the \(result.op.rawValue) reported success while the store's writes failed",
                    body:
                        "expected: an error \(accepted.sorted().joined(separator: " or "))\nactual: \(KizunaSync.ClientJudge.describe(answer))"
                )
            ]
        case .failure(let failure) where accepted.contains(failure.code):
            return []
        case .failure(let failure):
            let kind = failure.code.hasPrefix("DRIVER_") ? "a protocol error" : "another engine code"
            return [
                Failure(
                    .storeError,
                    message: "\(label): \(ObligationID.storeError) the store failure was answered as \(kind), \(failure.code)",
                    body: "expected: \(accepted.sorted().joined(separator: " or "))\nactual: \(failure)")
            ]
        case .broken(let reason):
            return [
                Failure(
                    .storeError, message: "\(label): \(ObligationID.storeError) the store failure got no answer: \(reason)",
                    body: "expected: an error \(storeCode)\nactual: \(reason)")
            ]
        }
    }

    /// The findings of a state read after the fault: it must be the state before it. `touched` are
    /// the rows the failed operation would have changed (a change there is the failed operation
    /// applied; elsewhere it is something acknowledged lost).
    static func stateFailures(before: StateResult, after: StateResult, touched: Set<RowKey>, at label: String) -> [Failure] {
        var failures: [Failure] = []
        if after.cursor != before.cursor {
            let how = ["0", ""].contains(after.cursor) ? "discarded" : "moved"
            failures.append(
                Failure(
                    .faultCursor,
                    message:
                        "\(label): \(ObligationID.faultCursor) the durable cursor was \(how) by a failed store operation: \(before.cursor) → \(after.cursor)",
                    body: "expected: \(before.cursor)\nactual: \(after.cursor)"))
        }
        if after.outboxDepth < before.outboxDepth {
            failures.append(
                Failure(
                    .ackedLost,
                    message:
                        "\(label): \(ObligationID.ackedLost) the outbox lost \(before.outboxDepth - after.outboxDepth) acknowledged entry(ies) in a failed store operation",
                    body: "expected: \(before.outboxDepth)\nactual: \(after.outboxDepth)"))
        } else if after.outboxDepth > before.outboxDepth {
            failures.append(
                Failure(
                    .failedApplied,
                    message:
                        "\(label): \(ObligationID.failedApplied) the outbox grew by \(after.outboxDepth - before.outboxDepth) in an operation reported failed",
                    body: "expected: \(before.outboxDepth)\nactual: \(after.outboxDepth)"))
        }
        for key in rowDifferences(before, after) {
            let was = before.row(key.table, key.pk)
            let applied = was == nil || touched.contains(key)
            failures.append(
                Failure(
                    applied ? .failedApplied : .ackedLost,
                    message: applied
                        ? "\(label): \(ObligationID.failedApplied) \(key.table)/\(key.pk) shows the change of an operation reported failed"
                        : "\(label): \(ObligationID.ackedLost) \(key.table)/\(key.pk) is not the row acknowledged before the fault",
                    body: "expected: \(KillJudge.rowText(was))\nactual: \(KillJudge.rowText(after.row(key.table, key.pk)))"))
        }
        let beforeJournal = KillJudge.journalKeys(before)
        let afterJournal = KillJudge.journalKeys(after)
        let lost = beforeJournal.filter { !afterJournal.contains($0) }
        let added = afterJournal.filter { !beforeJournal.contains($0) }
        if !lost.isEmpty {
            failures.append(
                Failure(
                    .ackedLost, message: "\(label): \(ObligationID.ackedLost) the journal lost \(lost.count) entry(ies)",
                    body: "expected: \(lost.joined(separator: ", "))"))
        }
        if !added.isEmpty {
            failures.append(
                Failure(
                    .failedApplied,
                    message:
                        "\(label): \(ObligationID.failedApplied) the journal gained \(added.count) entry(ies) in an operation reported failed",
                    body: "actual: \(added.joined(separator: ", "))"))
        }
        return failures
    }

    /// A row by table and key.
    struct RowKey: Sendable, Hashable {
        var table: String
        var pk: String
    }

    /// Every row that differs between two states, in table and key order.
    static func rowDifferences(_ before: StateResult, _ after: StateResult) -> [RowKey] {
        var keys: [RowKey] = []
        for table in Set(before.rows.keys).union(after.rows.keys).sorted() {
            let pks = Set((before.rows[table] ?? [:]).keys).union((after.rows[table] ?? [:]).keys)
            for pk in pks.sorted() where !StateResult.sameRow(before.row(table, pk), after.row(table, pk)) {
                keys.append(RowKey(table: table, pk: pk))
            }
        }
        return keys
    }
}
