import AccordDriver
import Checks
import Corpus
import JSON
import Reports

/// The kill matrix's pure findings (KM-…): the state recovered after a restart judged against the
/// durable state before the kill, the journal, and the pushes after it. No I/O; the kill steps
/// read the states and hand them over.
enum KillJudge {
    /// The KM findings of a restart: the recovered state must be the durable state before the kill.
    static func recoveryFailures(before: StateResult, after: StateResult, at label: String) -> [Failure] {
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
        return failures + Self.journalOnce(after, at: label)
    }

    /// KM-JOURNAL-ONCE: no rejection (mutation id and reason) is journaled twice.
    static func journalOnce(_ state: StateResult, at label: String) -> [Failure] {
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
            for pk in keys.sorted() where !StateResult.sameRow(before.row(table, pk), after.row(table, pk)) { return (table, pk) }
        }
        return nil
    }

    static func rowText(_ row: JSONObject?) -> String { row.map { CanonicalJSON.compact(.object($0)) } ?? "absent" }

    /// After a restart, a push whose mutations differ from the golden ones is a lost edit (one is
    /// missing) or a reordered outbox (the same ids in another order); nil when it is neither.
    static func outboxFailure(_ step: Step, golden: JSONValue?, received: JSONValue?) -> Failure? {
        func ids(_ body: JSONValue?) -> [String] {
            body?["batch"]?["mutations"]?.arrayValue?.compactMap { $0["mutation_id"]?.stringValue } ?? []
        }
        let want = ids(golden)
        let got = ids(received)
        guard want != got, !want.isEmpty else { return nil }
        let body = "expected: \(want.joined(separator: ","))\nactual: \(got.joined(separator: ","))"
        if Set(want) == Set(got) {
            return Failure(
                .outboxOrder,
                message:
                    "step \(step.n) \(step.label): \(ObligationID.outboxOrder) after the restart the outbox is pushed in another order",
                body: body
            )
        }
        let missing = want.filter { !got.contains($0) }
        guard !missing.isEmpty else { return nil }
        return Failure(
            .lostEdit,
            message:
                "step \(step.n) \(step.label): \(ObligationID.lostEdit) after the restart the push lacks \(missing.count) queued mutation(s): \(missing.joined(separator: ", "))",
            body: body)
    }
}
