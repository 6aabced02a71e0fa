import Foundation
import Synchronization

/// libfiu's failure points for one driver command: switched on once (before the command, or by the
/// mock on its connection thread when the command's request arrives), and off after the answer.
/// Its state says whether they were on and what went wrong.
final class FailureSwitch: Sendable {
    /// Where the switch stands.
    enum Phase: Sendable, Equatable {
        /// Not switched on yet (a request that never arrived leaves it here).
        case off
        /// `fiu-ctrl` is switching the failure points on.
        case switching
        /// The failure points are on.
        case on
        /// Switched off again after the answer.
        case done
        /// libfiu could not be switched.
        case broken(String)
    }

    private let failures: StorageFailures
    private let errno: StorageFaultVariant.Errno
    private let group: Int32
    private let state = Mutex(Phase.off)

    init(_ failures: StorageFailures, errno: StorageFaultVariant.Errno, group: Int32) {
        self.failures = failures
        self.errno = errno
        self.group = group
    }

    /// The phase now.
    var phase: Phase { state.withLock { $0 } }

    /// Switches the failures on, blocking this thread until `fiu-ctrl` exits (a connection thread, never a pool thread).
    func switchOnBlocking() {
        let off = state.withLock { phase -> Bool in
            guard phase == .off else { return false }
            phase = .switching
            return true
        }
        guard off else { return }
        let problem = failures.enableBlocking(errno, group: group)
        state.withLock { $0 = problem.map(Phase.broken) ?? .on }
    }

    /// Switches the failures on from a task, on a thread of its own.
    func switchOn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.switchOnBlocking()
                continuation.resume()
            }
        }
    }

    /// Switches the failures off when they are on, on a thread of its own.
    func switchOff() async {
        guard state.withLock({ $0 == .on }) else { return }
        let problem = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            Thread.detachNewThread { continuation.resume(returning: self.failures.disableBlocking(group: self.group)) }
        }
        state.withLock { $0 = problem.map(Phase.broken) ?? .done }
    }
}
