import AccordDriver
import AccordTestSupport
import Harness
import JSON
import KizunaWire
import Reports
import Testing

@testable import Corpus
@testable import Lanes

/// The client play and what wraps it: the ordinary play carries no kill state at all, and the
/// kill matrix's wrapper keeps what it knows across a kill to itself.
@Suite("ClientPlayWrapper")
struct ClientPlayWrapperTests {
    static func killState(_ point: KillPoint = .afterPushAnswered, target: Int = 3) -> KillState {
        KillState(point: point, target: target, relaunch: { () throws(RunError) in throw RunError.usage("no restart here") }, hooked: false)
    }

    static func push(_ n: Int, ids: [String]) -> (Step, RPCExchange) {
        let mutations = ids.map { JSONValue.object(["mutation_id": .string($0)]) }
        let exchange = RPCExchange(
            rpc: .push, request: ["batch": ["mutations": .array(mutations)]],
            response: ["results": .array(ids.map { .object(["mutation_id": .string($0), "status": "applied"]) })])
        return (Step(n: n, action: .rpc(exchange)), exchange)
    }

    static func received(_ exchange: RPCExchange) -> KizunaSync.Mock.Received {
        KizunaSync.Mock.Received(summary: "POST /rest/v1/rpc/push", mismatch: nil, unexpected: false, rpc: .push, body: exchange.request)
    }

    @Test("the ordinary play has no kill state: its wrapper is an empty value, and no field of the play is the kill matrix's")
    func ordinaryPlayHasNoKillState() async throws {
        #expect(MemoryLayout<Unwrapped>.size == 0)
        #expect(Mirror(reflecting: Unwrapped()).children.isEmpty)
        let loaded = try RunnerFixtures.transcript("push/001-insert-applied")
        let mock = try await KizunaSync.Mock.start(expecting: RequestMatch.Expected(jwt: "j", apikey: "a", clientID: "c"))
        let play = KizunaSync.ClientPlay(
            loaded: loaded, plan: ClientCasePlan(loaded.transcript), channel: InProcessDriver(engine: ToyEngine()), mock: mock,
            timeout: .seconds(10), wrapper: Unwrapped())
        let fields = Mirror(reflecting: play).children
        #expect(!fields.isEmpty)
        #expect(!fields.contains { $0.value is KillState || $0.value is KillPlay })
        #expect(!fields.contains { String(describing: type(of: $0.value)).contains("Kill") }, "\(fields.map { type(of: $0.value) })")
        #expect(play.classname == CaseResult.classname(lane: "client", caseID: loaded.transcript.caseID))
        await play.session.kill()
        await mock.stop()
    }

    @Test("the ordinary wrapper adds nothing at any seam")
    func unwrappedAddsNothing() {
        var wrapper = Unwrapped()
        let (step, exchange) = Self.push(2, ids: ["m1"])
        wrapper.consumed(exchange, step: 2)
        #expect(!wrapper.excuses(event: "LOCAL_CHANGED"))
        #expect(wrapper.requestFailures(step, rpc: .push, golden: exchange.request, received: [Self.received(exchange)]).isEmpty)
    }

    @Test("under the kill matrix a consumed push pushed again fails KM-DOUBLE-APPLY, and only then")
    func killPlayLedger() {
        var wrapper = KillPlay(Self.killState())
        let (step, exchange) = Self.push(2, ids: ["m1"])
        let (later, _) = Self.push(5, ids: ["m1"])
        #expect(wrapper.requestFailures(later, rpc: .push, golden: exchange.request, received: [Self.received(exchange)]).isEmpty)
        wrapper.consumed(exchange, step: step.n)
        let failures = wrapper.requestFailures(later, rpc: .push, golden: exchange.request, received: [Self.received(exchange)])
        #expect(failures.map(\.ruleID) == ["KM-DOUBLE-APPLY"])
    }

    @Test("under the kill matrix events seen before a kill are excused after it, and suites and classnames name the point")
    func killPlayEventsAndNames() throws {
        var wrapper = KillPlay(Self.killState(.softBlock))
        wrapper.observed(StateResult(rows: [:], cursor: "0", outboxDepth: 0, events: [EngineEvent(code: "RESET_REQUIRED")]))
        #expect(!wrapper.excuses(event: "RESET_REQUIRED"))
        wrapper.state.carryEvents()
        #expect(wrapper.excuses(event: "RESET_REQUIRED"))
        #expect(!wrapper.excuses(event: "LOCAL_CHANGED"))
        let transcript = try RunnerFixtures.transcript("push/001-insert-applied").transcript
        #expect(wrapper.suiteName(of: transcript) == "push/001-insert-applied @ soft-block")
        #expect(wrapper.classname(of: transcript) == CaseResult.classname(lane: "kill", caseID: transcript.caseID, variant: "soft-block"))
        #expect(Unwrapped().suiteName(of: transcript) == "push/001-insert-applied")
    }
}
