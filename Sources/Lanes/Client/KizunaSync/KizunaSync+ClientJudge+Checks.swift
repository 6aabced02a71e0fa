import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

extension KizunaSync.ClientJudge {
    /// Judges one transcript check against the driver's state; nil when it holds.
    /// - Parameter excused: whether an event code missing from `state` was raised before a kill (then it is not judged).
    func evaluate(_ check: Check, in state: StateResult, step: Step?, excused: (String) -> Bool = { _ in false }) -> Failure? {
        let at = step.map { "step \($0.n) assert" } ?? "postcondition"
        switch check {
        case .localRow(let table, let pk, let row):
            let actual = state.row(table, pk)
            if StateResult.sameRow(actual, row) { return nil }
            return Failure(
                .localRow,
                message:
                    "\(at): \(ObligationID.localRow) \(table)/\(pk) is \(actual == nil ? "absent" : "another row") locally, expected \(row == nil ? "absent" : "the golden row")",
                body:
                    "expected: \(row.map { CanonicalJSON.compact(.object($0)) } ?? "absent")\nactual: \(actual.map { CanonicalJSON.compact(.object($0)) } ?? "absent")"
            )
        case .cursor(let value):
            if state.cursor == value { return nil }
            return Failure(
                .cursor, message: "\(at): \(ObligationID.cursor) the durable cursor is \(state.cursor), expected \(value)",
                body: "expected: \(value)\nactual: \(state.cursor)")
        case .outboxDepth(let value):
            if state.outboxDepth == value { return nil }
            return Failure(
                .outboxDepth, message: "\(at): \(ObligationID.outboxDepth) \(state.outboxDepth) pending outbox entries, expected \(value)",
                body: "expected: \(value)\nactual: \(state.outboxDepth)")
        case .event(let code):
            if state.events.contains(where: { $0.code == code }) { return nil }
            if excused(code) { return nil }
            return Failure(
                .event, message: "\(at): \(ObligationID.event) no \(code) event was raised",
                body: "expected: \(code)\nactual: \(state.events.map(\.code).joined(separator: ", "))")
        case .noIntermediateCommit:
            if state.cursor != committedCursor {
                return Failure(
                    .checkpoint,
                    message:
                        "\(at): \(ObligationID.checkpoint) the cursor \(state.cursor) was committed before its checkpoint closed (committed: \(committedCursor))",
                    body: "expected: \(committedCursor)\nactual: \(state.cursor)")
            }
            for key in stagedKeys {
                let before = snapshot?.row(key.table, key.pk)
                let now = state.row(key.table, key.pk)
                if !StateResult.sameRow(before, now) {
                    return Failure(
                        .checkpoint,
                        message:
                            "\(at): \(ObligationID.checkpoint) \(key.table)/\(key.pk) from a staged page is visible before its checkpoint closed",
                        body:
                            "expected: \(before.map { CanonicalJSON.compact(.object($0)) } ?? "absent")\nactual: \(now.map { CanonicalJSON.compact(.object($0)) } ?? "absent")"
                    )
                }
            }
            return nil
        }
    }
}
