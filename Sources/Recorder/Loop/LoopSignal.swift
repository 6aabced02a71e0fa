import CEpoll
import Glibc
import Synchronization

/// What the proxy shares with one of its event loops across threads: a descriptor that wakes
/// the loop, and whether the loop has ended. Everything else of a loop stays on its thread.
final class LoopSignal: Sendable {
    /// The eventfd the loop watches.
    let wakeFD: Int32
    private let endedFlag = Atomic<Bool>(false)

    init?() {
        let fd = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        wakeFD = fd
    }

    deinit { close(wakeFD) }

    /// Wakes the loop from its wait (to notice that the proxy is stopping).
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Consumes the wake-ups, on the loop's thread.
    func consume() {
        var count: UInt64 = 0
        _ = read(wakeFD, &count, 8)
    }

    /// Whether the loop has ended (its connections closed, its thread returning).
    var ended: Bool { endedFlag.load(ordering: .acquiring) }

    /// Marks the loop ended, on the loop's thread.
    func markEnded() { endedFlag.store(true, ordering: .releasing) }
}
