import AccordDriver
import JSON
import KizunaWire
import Testing

@testable import Corpus
@testable import Lanes

/// The client lane's pure judge: findings from a step, the driver's answer and its state, with no
/// driver and no mock.
@Suite("KizunaSync.ClientJudge")
struct ClientJudgeTests {
    static func pull(_ n: Int, cursor: String, hasMore: Bool) -> (Step, RPCExchange) {
        let exchange = RPCExchange(
            rpc: .pull, request: ["cursor": "0"],
            response: ["cursor": .string(cursor), "has_more": .bool(hasMore), "rows": [["table": "todos", "pk": "1"]], "tombstones": []])
        return (Step(n: n, action: .rpc(exchange)), exchange)
    }

    @Test("a closing page commits its cursor; a pull that reports another durable cursor fails CL-CHECKPOINT")
    func closingPageCommits() {
        var judge = KizunaSync.ClientJudge(checkpoint: nil)
        let (step, exchange) = Self.pull(2, cursor: "5", hasMore: false)
        let good = judge.judgePull(step, exchange: exchange, answer: .result(.pulled(PullResult(outcome: .closed, cursor: "5", pages: 1))))
        #expect(good.isEmpty)
        #expect(judge.committedCursor == "5")
        var late = KizunaSync.ClientJudge(checkpoint: "0")
        let failures = late.judgePull(
            step, exchange: exchange, answer: .result(.pulled(PullResult(outcome: .closed, cursor: "0", pages: 1))))
        #expect(failures.map(\.ruleID) == ["CL-CHECKPOINT"])
    }

    @Test("a local row is the golden row whatever the order of its columns; another value or a missing row fails CL-LOCAL-ROW")
    func localRowIgnoresColumnOrder() {
        let judge = KizunaSync.ClientJudge(checkpoint: nil)
        let golden: JSONObject = ["done": false, "owner_id": "a1", "title": "alpha"]
        func state(_ row: JSONObject?) -> StateResult {
            StateResult(rows: row.map { ["todos": ["1": $0]] } ?? [:], cursor: "0", outboxDepth: 0)
        }
        let check = Check.localRow(table: "todos", pk: "1", row: golden)
        #expect(judge.evaluate(check, in: state(["title": "alpha", "owner_id": "a1", "done": false]), step: nil) == nil)
        #expect(judge.evaluate(check, in: state(["title": "beta", "owner_id": "a1", "done": false]), step: nil)?.ruleID == "CL-LOCAL-ROW")
        #expect(judge.evaluate(check, in: state(nil), step: nil)?.ruleID == "CL-LOCAL-ROW")
        #expect(judge.evaluate(.localRow(table: "todos", pk: "1", row: nil), in: state(nil), step: nil) == nil)
    }

    @Test("a staged page keeps the committed cursor and remembers the keys it carries")
    func stagedPage() {
        var judge = KizunaSync.ClientJudge(checkpoint: "3")
        let (step, exchange) = Self.pull(4, cursor: "0:7", hasMore: true)
        let failures = judge.judgePull(
            step, exchange: exchange, answer: .result(.pulled(PullResult(outcome: .staged, cursor: "3", pages: 1))))
        #expect(failures.isEmpty)
        #expect(judge.committedCursor == "3")
        #expect(judge.stagedKeys.map { "\($0.table)/\($0.pk)" } == ["todos/1"])
    }

    @Test("a push reported with another mutation count fails CL-OUTCOME")
    func pushCount() {
        let exchange = RPCExchange(
            rpc: .push, request: ["batch": ["mutations": [["mutation_id": "m1"], ["mutation_id": "m2"]]]], response: ["verdicts": []])
        let step = Step(n: 3, action: .rpc(exchange))
        let judge = KizunaSync.ClientJudge(checkpoint: nil)
        #expect(judge.judgePush(step, exchange: exchange, answer: .result(.pushed(PushResult(outcome: .sent, mutations: 2)))).isEmpty)
        let wrong = judge.judgePush(step, exchange: exchange, answer: .result(.pushed(PushResult(outcome: .sent, mutations: 1))))
        #expect(wrong.map(\.ruleID) == ["CL-OUTCOME"])
    }

    @Test("state checks: a wrong cursor fails CL-CURSOR; a missing event is excused only when the caller says so")
    func stateChecks() {
        let judge = KizunaSync.ClientJudge(checkpoint: nil)
        let state = StateResult(rows: [:], cursor: "4", outboxDepth: 0)
        #expect(judge.evaluate(.cursor("4"), in: state, step: nil) == nil)
        #expect(judge.evaluate(.cursor("5"), in: state, step: nil)?.ruleID == "CL-CURSOR")
        #expect(judge.evaluate(.event("LOCAL_CHANGED"), in: state, step: nil)?.ruleID == "CL-EVENT")
        #expect(judge.evaluate(.event("LOCAL_CHANGED"), in: state, step: nil, excused: { $0 == "LOCAL_CHANGED" }) == nil)
    }

    @Test("no request for a step fails CL-REQUEST; a changed resend after a fault fails CL-RESEND")
    func requests() {
        var judge = KizunaSync.ClientJudge(checkpoint: nil)
        let step = Step(n: 5, action: .reap)
        #expect(judge.requestFailures(step, rpc: .push, golden: nil, received: []).map(\.ruleID) == ["CL-REQUEST"])
        judge.lastFault = (4, .push, ["batch": ["mutations": [["mutation_id": "m1"]]]])
        let resent = KizunaSync.Mock.Received(
            summary: "POST /rest/v1/rpc/push", mismatch: nil, unexpected: false, rpc: .push,
            body: ["batch": ["mutations": [["mutation_id": "m9"]]]])
        #expect(judge.requestFailures(step, rpc: .push, golden: nil, received: [resent]).map(\.ruleID) == ["CL-RESEND"])
    }
}
