import CEpoll
import Glibc
import HTTP
import Synchronization

/// What the proxy shares with one of its event loops across threads: a descriptor that wakes
/// the loop, the connections other loops accepted for it, how many it serves, since when its
/// oldest idle connection has been idle, and whether it has ended. Everything else of a loop
/// stays on its thread.
final class LoopSignal: Sendable {
    /// How a connection handed to the loop stands with the connection cap.
    enum Admission: Sendable {
        /// Counted in: the loop serves it.
        case admitted
        /// Not counted in, the cap being reached: the loop closes its oldest idle connection to
        /// make room for it, or hands it on to the loop with the oldest idle one; after `hops`
        /// hand-offs as many as the loops, or with no idle connection anywhere, it is answered 503.
        case needsRoom(hops: Int)
    }

    /// A connection accepted by another loop for this one.
    struct Handed: Sendable {
        let fd: Int32
        let peer: HTTPEndpoint
        let admission: Admission
    }

    /// Connections accepted by another loop and handed to this one, until it takes them.
    private struct Inbox {
        var connections: [Handed] = []
        var closed = false
    }

    /// The wake-up the loop watches beside its sockets.
    let wakeup: Wakeup
    /// Happens once the loop has ended (its connections closed, its thread returning).
    let ended = StopEvent()
    private let inbox = Mutex(Inbox())
    private let served = Atomic<Int>(0)
    /// Nanoseconds from the proxy's start to when the loop's oldest idle connection became
    /// idle, as of the loop's last sweep; `Int.max` when it has none.
    private let oldestIdle = Atomic<Int>(Int.max)

    init?() {
        guard let wakeup = Wakeup() else { return nil }
        self.wakeup = wakeup
    }

    /// The eventfd the loop watches.
    var wakeFD: Int32 { wakeup.fd }

    /// Wakes the loop from its wait (to notice that the proxy is stopping).
    func wake() { wakeup.ring() }

    /// Consumes the wake-ups, on the loop's thread.
    func consume() { wakeup.consume() }

    /// Hands an accepted connection to the loop and wakes it.
    /// - Parameters:
    ///   - fd: the connection's socket.
    ///   - peer: the client's address.
    ///   - admission: whether it is counted in, or waits for room.
    /// - Returns: false when the loop no longer takes connections (the caller keeps it).
    func hand(_ fd: Int32, peer: HTTPEndpoint, admission: Admission = .admitted) -> Bool {
        let taken = inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.connections.append(Handed(fd: fd, peer: peer, admission: admission))
            return true
        }
        if taken { wake() }
        return taken
    }

    /// The connections handed to the loop since it last looked, on the loop's thread.
    func takeHanded() -> [Handed] {
        inbox.withLock { inbox in
            defer { inbox.connections.removeAll() }
            return inbox.connections
        }
    }

    /// Refuses further hand-offs and returns those not taken, on the loop's thread as it ends.
    func closeInbox() -> [Handed] {
        // Once closed, nothing more is appended: what is there now is all there will be.
        inbox.withLock { $0.closed = true }
        return takeHanded()
    }

    /// The client connections the loop has served since it started (accepted or handed to it).
    var connectionsServed: Int { served.load(ordering: .relaxed) }

    /// Counts a connection the loop took on, on the loop's thread.
    func countServed() { served.add(1, ordering: .relaxed) }

    /// Since when (nanoseconds from the proxy's start) the loop's oldest idle connection has
    /// been idle, as of its last sweep; `Int.max` when it had none.
    var oldestIdleSince: Int { oldestIdle.load(ordering: .relaxed) }

    /// Publishes since when the loop's oldest idle connection has been idle, on the loop's thread.
    func publishOldestIdle(_ nanoseconds: Int) { oldestIdle.store(nanoseconds, ordering: .relaxed) }

    /// Marks the loop ended, on the loop's thread, waking whoever waits for it to stop.
    func markEnded() { ended.signal() }
}
