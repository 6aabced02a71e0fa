import CLinux
import Glibc

/// An eventfd a thread can wait on beside its sockets: `ring()` from any thread or task makes it
/// readable, `consume()` on the waiting side makes it quiet again. The one wake-up of a thread
/// that waits in poll(2): a recorder loop told to stop, a stream told that its data changed.
public final class Wakeup: Sendable {
    /// The eventfd.
    public let fd: Int32

    /// Makes a quiet wake-up; nil when the process has no descriptor left.
    public init?() {
        let fd = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Makes the wake-up readable.
    public func ring() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Takes every ring so far, on the waiting side.
    public func consume() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
    }
}
