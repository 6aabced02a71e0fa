import Foundation
import Testing

@testable import Lanes

/// The storage-fault matrix's tool runs (`fiu-ctrl`): a tool that never exits, as `fiu-ctrl`
/// writing to a control pipe no process reads any more does, is killed, and the switch reports it.
@Suite("StorageFailures' tool runs")
struct StorageFailuresToolTests {
    @Test("a tool's exit status comes back; one that runs past its timeout is killed and answers -1 at once")
    func boundedToolRun() {
        #expect(StorageFailures.runBlocking("/bin/sh", ["-c", "exit 3"], environment: [:]) == 3)
        #expect(StorageFailures.runBlocking("/nonexistent/tool", [], environment: [:]) == -1)
        let started = ContinuousClock.now
        #expect(StorageFailures.runBlocking("/bin/sleep", ["30"], environment: [:], timeout: .milliseconds(300)) == -1)
        #expect(ContinuousClock.now - started < .seconds(10), "killed after its timeout, not waited for")
    }
}
