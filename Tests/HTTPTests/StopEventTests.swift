import Foundation
import HTTP
import Testing

/// The event a stop waits on: woken by the signal, not by looking again after a sleep.
@Suite("Stop event")
struct StopEventTests {
    @Test("a waiter is woken by the signal long before its deadline")
    func signalWakes() async {
        let event = StopEvent()
        let start = ContinuousClock.now
        async let woken = event.wait(until: start + .seconds(30))
        try? await Task.sleep(for: .milliseconds(20))
        event.signal()
        #expect(await woken)
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(event.happened)
    }

    @Test("a wait whose deadline comes first returns false")
    func deadlineEnds() async {
        let event = StopEvent()
        #expect(!(await event.wait(until: .now + .milliseconds(10))))
        #expect(!event.happened)
    }

    @Test("once signalled, a late wait returns at once, and a second signal does nothing")
    func staysSignalled() async {
        let event = StopEvent()
        event.signal()
        event.signal()
        #expect(await event.wait(until: .now))
        event.wait()
    }

    @Test("a blocked thread is woken by a signal from another thread")
    func blockingWait() async {
        let event = StopEvent()
        let thread = Thread { event.signal() }
        thread.start()
        event.wait()
        #expect(event.happened)
    }
}
