import Foundation
import HTTP
import Testing

/// The event a stop waits on: woken by the signal, not by looking again after a sleep.
@Suite("Stop event")
struct StopEventTests {
    @Test("a waiter is woken by the signal, not by its deadline")
    func signalWakes() async {
        let event = StopEvent()
        // Signalled from a thread of its own, so that a busy task pool cannot delay the signal.
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.02)
            event.signal()
        }
        thread.start()
        // True only when the signal ended the wait: the deadline would answer false.
        #expect(await event.wait(until: .now + .seconds(600)))
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
