import AccordDriver
import Checks
import Corpus
import JSON
import PowerSyncWire
import Reports
import Testing

@testable import Lanes

/// The PowerSync client lane's pure judge: which obligation a wrong answer or state breaks,
/// from what the golden steps say the client has outstanding.
@Suite("PowerSync client judge")
struct PowerSyncClientJudgeTests {
    static let state = PowerSync.Step(
        n: 4, action: .client(.assertClient(PowerSync.ClientExpectation(lastCheckpoint: .some("2"), requests: ["1": false]))))

    static func stateAnswer(last: String?, requests: [String: Bool]) -> DriverSession.Answer {
        .result(.powerSync(.state(ClientStateResult(rows: [:], pendingUploads: 0, lastCheckpoint: last, requests: requests))))
    }

    @Test("a checkpoint applied too early breaks the obligation of what is outstanding: uploads, the upload's request, a checksum fault")
    func applyObligationFollowsContext() {
        let wrong = Self.stateAnswer(last: "3", requests: ["1": false])
        var judge = PowerSync.ClientJudge()
        #expect(judge.judgeAnswer(Self.state, wrong).map(\.ruleID) == ["PSC-APPLY-WHOLE"])
        judge.observe(
            PowerSync.Step(
                n: 1,
                action: .client(.localWrite(PowerSync.LocalWrite(op: .delete, table: "todos", id: "t1", data: nil), pendingUploads: 1))
            ))
        #expect(judge.judgeAnswer(Self.state, wrong).map(\.ruleID) == ["PSC-UPLOADS-FIRST"])
        let own = PowerSync.ExchangePair(request: ["checkpoint_request_id": "2"], response: ["data": ["checkpoint_request_id": "2"]])
        judge.observe(
            PowerSync.Step(
                n: 2, action: .client(.upload(request: ["crud": []], response: ["status": 200], target: .checkpointRequest(own))))
        )
        #expect(judge.judgeAnswer(Self.state, wrong).map(\.ruleID) == ["PSC-WRITE-CHECKPOINT"])
        let reaching: [JSONValue] = [
            ["checkpoint": ["last_op_id": "3", "write_checkpoint": "2", "buckets": []]], ["checkpoint_complete": ["last_op_id": "3"]],
        ]
        judge.observe(PowerSync.Step(n: 3, action: .syncStream(request: ["buckets": []], lines: reaching)))
        #expect(judge.ownRequest == nil)
        judge.observe(
            PowerSync.Step(n: 3, action: .client(.streamFault(request: ["buckets": []], fault: .checksumMismatch(lines: reaching)))))
        #expect(judge.judgeAnswer(Self.state, wrong).map(\.ruleID) == ["PSC-CHECKSUM"])
        #expect(judge.judgeAnswer(Self.state, Self.stateAnswer(last: "2", requests: ["1": false])).isEmpty)
    }

    @Test("wait outcomes: early resolution, the wrong failure, and no resolution after a disconnect are three obligations")
    func waitOutcomes() {
        func wait(_ expect: PowerSync.WaitOutcome) -> PowerSync.Step {
            PowerSync.Step(n: 5, action: .client(.waitForSync(requestID: "1", timeoutMilliseconds: 5, expect: expect)))
        }
        func got(_ outcome: PowerSync.WaitOutcome) -> DriverSession.Answer { .result(.powerSync(.waited(outcome))) }
        var judge = PowerSync.ClientJudge()
        #expect(judge.judgeAnswer(wait(.timeout), got(.resolved)).map(\.ruleID) == ["PSC-WAIT-COMPLETE"])
        #expect(judge.judgeAnswer(wait(.uploadError), got(.timeout)).map(\.ruleID) == ["PSC-WAIT-FAILURES"])
        #expect(judge.judgeAnswer(wait(.resolved), got(.timeout)).map(\.ruleID) == ["PSC-WAIT-COMPLETE"])
        judge.observe(PowerSync.Step(n: 2, action: .client(.disconnect)))
        #expect(judge.judgeAnswer(wait(.resolved), got(.timeout)).map(\.ruleID) == ["PSC-REQUEST-SURVIVES"])
        #expect(judge.judgeAnswer(wait(.downloadError), got(.downloadError)).isEmpty)
    }

    @Test("a request the mock refused names the step's obligation and its reason")
    func requestMismatch() {
        let judge = PowerSync.ClientJudge()
        let step = PowerSync.Step(n: 6, action: .client(.requestCheckpoint(request: [:], response: [:])))
        let failures = judge.judgeRequests(
            step, received: [PowerSync.Mock.Received(summary: "POST /sync/checkpoint-request", mismatch: "expected \"43\", found \"2\"")],
            missing: [])
        #expect(failures.map(\.ruleID) == ["PSC-REQUEST-ID"])
        #expect(failures.first?.message.contains("step 6 request-checkpoint") == true)
    }
}
