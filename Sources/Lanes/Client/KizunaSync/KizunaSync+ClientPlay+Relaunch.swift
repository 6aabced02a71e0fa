import AccordDriver
import Harness
import KizunaWire

extension KizunaSync.ClientPlay {
    /// Puts a fresh driver from `launch` in place of the session's, says hello and, when given,
    /// opens `open` (the same store): how the kill matrix and the storage-fault matrix bring a
    /// client back. False, with the case stopped at `name`, when any of it fails.
    /// - Parameters:
    ///   - name: the test case a failure stops the case at.
    ///   - launch: starts the driver.
    ///   - open: the store to open, or nil to stop after hello.
    ///   - moment: how messages name the restart, e.g. "after the kill".
    /// - Returns: whether the driver is up (and the store open).
    mutating func relaunch(_ name: String, with launch: DriverLauncher, open: OpenRequest?, moment: String) async -> Bool {
        do throws(RunError) {
            session.replace(with: try launch())
        } catch {
            stop(name, "the driver did not restart \(moment): \(error)")
            return false
        }
        switch await session.call(.hello(protocolVersion: DriverRequest.protocolVersion), timeout: timeout) {
        case .result(.hello): break
        case let other:
            stop(name, "hello \(moment): \(describe(other))")
            return false
        }
        guard let open else { return true }
        return await reopen(open, name: name, moment: moment)
    }

    /// Opens `open` in the running driver; false when it failed (the case stopped at `name`).
    /// - Parameters:
    ///   - open: the store.
    ///   - name: the test case a failure stops the case at.
    ///   - moment: how the message names the restart.
    /// - Returns: whether the store is open.
    mutating func reopen(_ open: OpenRequest, name: String, moment: String) async -> Bool {
        switch await session.call(.open(open)) {
        case .result: return true
        case let other:
            stop(name, "open of the same store \(moment): \(describe(other))")
            return false
        }
    }
}
