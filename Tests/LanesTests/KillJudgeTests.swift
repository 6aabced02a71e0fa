import AccordDriver
import JSON
import Testing

@testable import Corpus
@testable import Lanes

/// The kill matrix's pure findings, from states and request bodies alone.
@Suite("KillJudge")
struct KillJudgeTests {
    static let row: JSONObject = ["id": "1", "title": "one"]
    static let before = StateResult(
        rows: ["todos": ["1": row]], cursor: "4", outboxDepth: 1,
        journal: [JournalEntry(table: "todos", pk: "2", mutationID: "m2", reason: "CONFLICT")])

    @Test("the durable state recovered whole has no finding")
    func recovered() {
        #expect(KillJudge.recoveryFailures(before: Self.before, after: Self.before, at: "step 3").isEmpty)
    }

    @Test("a cursor ahead, a lost outbox entry, a lost row and a lost journal entry are each named")
    func lost() {
        let after = StateResult(rows: ["todos": [:]], cursor: "5", outboxDepth: 0)
        let ids = KillJudge.recoveryFailures(before: Self.before, after: after, at: "step 3").map(\.ruleID)
        #expect(ids == ["KM-CURSOR-AHEAD", "KM-LOST-EDIT", "KM-LOST-EDIT", "KM-JOURNAL-ONCE"])
    }

    @Test("a rejection journaled twice fails KM-JOURNAL-ONCE")
    func journaledTwice() {
        var twice = Self.before
        twice.journal += twice.journal
        #expect(KillJudge.journalOnce(twice, at: "after the case").map(\.ruleID) == ["KM-JOURNAL-ONCE"])
    }

    @Test("after a restart the same ids in another order fail KM-OUTBOX-ORDER, a missing one KM-LOST-EDIT")
    func outbox() {
        let step = Step(n: 7, action: .reap)
        let golden: JSONValue = ["batch": ["mutations": [["mutation_id": "a"], ["mutation_id": "b"]]]]
        let swapped: JSONValue = ["batch": ["mutations": [["mutation_id": "b"], ["mutation_id": "a"]]]]
        let short: JSONValue = ["batch": ["mutations": [["mutation_id": "a"]]]]
        #expect(KillJudge.outboxFailure(step, golden: golden, received: golden) == nil)
        #expect(KillJudge.outboxFailure(step, golden: golden, received: swapped)?.ruleID == "KM-OUTBOX-ORDER")
        #expect(KillJudge.outboxFailure(step, golden: golden, received: short)?.ruleID == "KM-LOST-EDIT")
    }
}
