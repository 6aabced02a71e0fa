import AccordDriver
import JSON
import Testing

@testable import Lanes

/// The storage-fault matrix's pure findings: the fixtures of the SF rules, from answers and states alone.
@Suite("StorageFaultJudge")
struct StorageFaultJudgeTests {
    static let row: JSONObject = ["id": "1", "title": "one"]
    static let before = StateResult(
        rows: ["todos": ["1": row]], cursor: "4", outboxDepth: 1,
        journal: [JournalEntry(table: "todos", pk: "2", mutationID: "m2", reason: "CONFLICT")])
    static let touched: Set = [StorageFaultJudge.RowKey(table: "todos", pk: "3")]

    @Test("STORE is the answer a store failure must get; STORE_UNAVAILABLE also refuses another identity")
    func storeAnswer() {
        let store = DriverSession.Answer.failure(DriverFailure(code: "STORE", message: "disk I/O error"))
        #expect(StorageFaultJudge.answerFailures(store, point: .localWrite, at: "step 5").isEmpty)
        let unavailable = DriverSession.Answer.failure(DriverFailure(code: "STORE_UNAVAILABLE", message: "another identity"))
        #expect(StorageFaultJudge.answerFailures(unavailable, point: .identityChange, at: "step 5").isEmpty)
        #expect(StorageFaultJudge.answerFailures(unavailable, point: .localWrite, at: "step 5").map(\.ruleID) == ["SF-STORE-ERROR"])
    }

    @Test("success under failing writes is SF-FALSE-SUCCESS; a protocol error, another code or no answer is SF-STORE-ERROR")
    func wrongAnswers() {
        let success = DriverSession.Answer.result(.written(WriteResult(outboxDepth: 2)))
        #expect(StorageFaultJudge.answerFailures(success, point: .localWrite, at: "step 5").map(\.ruleID) == ["SF-FALSE-SUCCESS"])
        for answer in [
            DriverSession.Answer.failure(DriverFailure(code: "DRIVER_ENGINE_FAILURE", message: "boom")),
            .failure(DriverFailure(code: "REMOTE", message: "push: timeout")),
            .broken("the driver exited with status 134"),
        ] {
            #expect(StorageFaultJudge.answerFailures(answer, point: .verdictApply, at: "step 7").map(\.ruleID) == ["SF-STORE-ERROR"])
        }
    }

    @Test("the state before the fault, unchanged, has no finding")
    func unchanged() {
        #expect(StorageFaultJudge.stateFailures(before: Self.before, after: Self.before, touched: Self.touched, at: "step 5").isEmpty)
    }

    @Test("a lost outbox entry, row or journal entry is SF-ACKED-LOST")
    func ackedLost() {
        let after = StateResult(rows: ["todos": [:]], cursor: "4", outboxDepth: 0)
        let ids = StorageFaultJudge.stateFailures(before: Self.before, after: after, touched: Self.touched, at: "step 5").map(\.ruleID)
        #expect(ids == ["SF-ACKED-LOST", "SF-ACKED-LOST", "SF-ACKED-LOST"])
    }

    @Test("a failed operation's row, outbox entry or journal entry showing up is SF-FAILED-APPLIED")
    func failedApplied() {
        var after = Self.before
        after.rows["todos"]?["3"] = ["id": "3"]
        after.outboxDepth = 2
        after.journal.append(JournalEntry(table: "todos", pk: "3", mutationID: "m3", reason: "PRECONDITION"))
        let ids = StorageFaultJudge.stateFailures(before: Self.before, after: after, touched: Self.touched, at: "step 5").map(\.ruleID)
        #expect(ids == ["SF-FAILED-APPLIED", "SF-FAILED-APPLIED", "SF-FAILED-APPLIED"])
    }

    @Test("a cursor moved ahead or dropped to 0 by a failed commit is SF-CURSOR")
    func cursor() {
        for moved in ["0", "7"] {
            var after = Self.before
            after.cursor = moved
            let failures = StorageFaultJudge.stateFailures(before: Self.before, after: after, touched: [], at: "step 6")
            #expect(failures.map(\.ruleID) == ["SF-CURSOR"])
            #expect(failures.first?.message.contains(moved == "0" ? "discarded" : "moved") == true)
        }
    }

    @Test("every point and variant has a distinct classname part")
    func variantNames() {
        let names = StorageFaultPoint.allCases.flatMap { point in StorageFaultVariant.all.map { "\(point.rawValue)+\($0)" } }
        #expect(Set(names).count == StorageFaultPoint.allCases.count * 4)
    }
}
