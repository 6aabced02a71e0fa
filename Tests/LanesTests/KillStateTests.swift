import AccordDriver
import Testing

@testable import Lanes

/// What the kill matrix knows across a kill: its phase, one after the other, and the events it carries over.
@Suite("KillState")
struct KillStateTests {
    @Test("armed, fired at its step, restarted on the same store, then the interrupted step found applied")
    func phases() {
        var state = ClientPlayWrapperTests.killState()
        #expect(state.phase == .armed)
        #expect(!state.fired && !state.restarted && !state.eventsUncertain)
        state.fire()
        #expect(state.phase == .fired)
        #expect(state.fired && !state.restarted)
        state.restart()
        #expect(state.phase == .restarted(eventsUncertain: false))
        #expect(state.restarted && !state.eventsUncertain)
        state.interruptedStepApplied()
        #expect(state.phase == .restarted(eventsUncertain: true))
        #expect(state.eventsUncertain)
        state.fire()
        state.restart()
        #expect(state.phase == .restarted(eventsUncertain: true))
    }

    @Test("a restart carries the events of the last state read, and only those")
    func carriesEvents() {
        var state = ClientPlayWrapperTests.killState()
        state.observe(StateResult(rows: [:], cursor: "0", outboxDepth: 0, events: [EngineEvent(code: "LOCAL_CHANGED")]))
        state.observe(StateResult(rows: [:], cursor: "0", outboxDepth: 0, events: [EngineEvent(code: "RESET_REQUIRED")]))
        state.fire()
        state.restart()
        #expect(state.carriedEvents == ["RESET_REQUIRED"])
        #expect(state.lastEvents.isEmpty)
    }
}
