import CEpoll
import Glibc

/// An epoll instance: the descriptors an event loop watches and a wait for the ready ones.
final class EventPoll {
    /// Readable (or hung up).
    static let readable = UInt32(EPOLLIN.rawValue)
    /// Writable.
    static let writable = UInt32(EPOLLOUT.rawValue)
    /// In error.
    static let failed = UInt32(EPOLLERR.rawValue)
    /// Hung up.
    static let hungUp = UInt32(EPOLLHUP.rawValue)
    /// Woken alone among the loops sharing a descriptor (a shared listener).
    static let exclusive = UInt32(EPOLLEXCLUSIVE.rawValue)

    let fd: Int32
    private let events: UnsafeMutableBufferPointer<epoll_event>

    init?(capacity: Int = 256) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        events = .allocate(capacity: capacity)
    }

    deinit {
        events.deallocate()
        close(fd)
    }

    /// Starts watching a descriptor for `mask`.
    @discardableResult
    func add(_ descriptor: Int32, _ mask: UInt32) -> Bool { control(EPOLL_CTL_ADD, descriptor, mask) }

    /// Changes what a watched descriptor is watched for.
    @discardableResult
    func modify(_ descriptor: Int32, _ mask: UInt32) -> Bool { control(EPOLL_CTL_MOD, descriptor, mask) }

    /// Stops watching a descriptor.
    func remove(_ descriptor: Int32) { _ = control(EPOLL_CTL_DEL, descriptor, 0) }

    private func control(_ operation: Int32, _ descriptor: Int32, _ mask: UInt32) -> Bool {
        var event = epoll_event()
        event.events = mask
        event.data.fd = descriptor
        return epoll_ctl(fd, operation, descriptor, &event) == 0
    }

    /// Waits for ready descriptors and calls `ready` with each and its events.
    /// - Parameters:
    ///   - milliseconds: the longest wait, -1 for no limit.
    ///   - ready: called once per ready descriptor.
    func wait(milliseconds: Int32, _ ready: (Int32, UInt32) -> Void) {
        let count = epoll_wait(fd, events.baseAddress, Int32(events.count), milliseconds)
        guard count > 0 else { return }
        for index in 0..<Int(count) { ready(events[index].data.fd, events[index].events) }
    }
}
