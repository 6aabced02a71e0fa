import Foundation
import Testing

@testable import Lanes

@Suite("Latch and DriverEnding: waits on events, kills known from the exit status")
struct LatchTests {
    @Test("a wait ends when the latch is set, not before, and a timed wait reports whether it was")
    func waitsForSet() async {
        let latch = Latch()
        #expect(await latch.wait(timeout: .milliseconds(20)) == false)
        let waiter = Task { await latch.wait(timeout: .seconds(30)) }
        latch.set()
        #expect(await waiter.value)
        #expect(latch.isSet)
        #expect(await latch.wait(timeout: .zero), "a set latch does not wait")
    }

    @Test("a cancelled wait returns at once")
    func cancelledWait() async {
        let latch = Latch()
        let waiter = Task { await latch.wait() }
        waiter.cancel()
        await waiter.value
        #expect(!latch.isSet)
    }

    @Test("a thread blocked on a latch wakes when it is set")
    func blockingWait() async {
        let latch = Latch()
        let woke = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread { continuation.resume(returning: latch.block(timeout: .seconds(30))) }
            latch.set()
        }
        #expect(woke)
        #expect(Latch().block(timeout: .milliseconds(5)) == false)
    }

    @Test("SIGKILL is known from the termination, directly or through the shell's 128 + 9")
    func killFromStatus() {
        #expect(DriverEnding.signalled(SIGKILL).isKill)
        #expect(DriverEnding.exited(status: 128 + SIGKILL).isKill)
        #expect(!DriverEnding.signalled(SIGTERM).isKill)
        #expect(!DriverEnding.exited(status: 0).isKill)
        #expect(!DriverEnding.exited(status: 9).isKill)
        #expect(DriverEnding.exited(status: 0).description == nil)
        #expect(DriverEnding.exited(status: 3).description == "the driver exited with status 3")
        #expect(DriverEnding.signalled(SIGKILL).description == "the driver died of signal 9")
    }

    @Test("a process driver killed with SIGKILL reports it from its exit status")
    func processDriverKilled() async throws {
        let driver = try ProcessDriver(command: "exec sleep 30")
        await driver.kill()
        #expect(driver.ending?.isKill == true)
        let clean = try ProcessDriver(command: "cat >/dev/null")
        #expect(await clean.finish(timeout: .seconds(5)) == nil)
        #expect(clean.ending == .exited(status: 0))
    }
}
