import Transport

/// The upstream sockets a loop watches for libcurl. A connection's socket that libcurl stops
/// waiting on between transfers stays registered with epoll ("parked") instead of being
/// removed and added again for the next transfer: two `epoll_ctl` calls saved per exchange.
/// Only sockets libcurl reported opening are parked, since libcurl reports closing them too,
/// so a parked descriptor number is never one that was closed and reused.
struct UpstreamSockets {
    /// Sockets libcurl waits on, with the events they are registered for.
    private var watched: [Int32: UInt32] = [:]
    /// Registered sockets of idle connections, with the events they are registered for.
    private var parked: [Int32: UInt32] = [:]
    /// Connection sockets libcurl opened and has not closed: it reports their closing.
    private var opened: Set<Int32> = []

    /// Whether libcurl waits on the socket now.
    func isWatched(_ fd: Int32) -> Bool { watched[fd] != nil }

    /// Whether the socket is an idle connection's, still registered.
    func isParked(_ fd: Int32) -> Bool { parked[fd] != nil }

    /// Applies what libcurl wants for a socket to the loop's poll.
    mutating func apply(_ fd: Int32, _ interest: CurlMulti.Interest, to poll: EventPoll) {
        let mask: UInt32
        switch interest {
        case .opened:
            // A new socket under this number: anything noted for the number is stale (closing
            // the old one ended its registration).
            forget(fd)
            opened.insert(fd)
            return
        case .closing:
            opened.remove(fd)
            if watched.removeValue(forKey: fd) != nil || parked.removeValue(forKey: fd) != nil { poll.remove(fd) }
            return
        case .remove:
            guard let mask = watched.removeValue(forKey: fd) else { return }
            if opened.contains(fd) { parked[fd] = mask } else { poll.remove(fd) }
            return
        case .read: mask = EventPoll.readable
        case .write: mask = EventPoll.writable
        case .readWrite: mask = EventPoll.readable | EventPoll.writable
        }
        if let registered = parked.removeValue(forKey: fd) {
            watched[fd] = mask
            if registered != mask && !poll.modify(fd, mask) { poll.add(fd, mask) }
            return
        }
        // Either call may find the descriptor in the other state (a number closed and reused
        // without a removal): try the other one then.
        if watched.updateValue(mask, forKey: fd) == nil {
            if !poll.add(fd, mask) { poll.modify(fd, mask) }
        } else if !poll.modify(fd, mask) {
            poll.add(fd, mask)
        }
    }

    /// An idle connection's socket became ready (its peer closed it or sent something
    /// unasked): it is removed from the poll, so that it does not wake the loop again.
    /// libcurl finds the connection dead when it next checks it.
    mutating func unpark(_ fd: Int32, from poll: EventPoll) {
        guard parked.removeValue(forKey: fd) != nil else { return }
        poll.remove(fd)
    }

    /// Forgets a descriptor number that the loop now uses for something else (a client
    /// connection accepted under a number libcurl closed without saying so).
    mutating func forget(_ fd: Int32) {
        watched.removeValue(forKey: fd)
        parked.removeValue(forKey: fd)
        opened.remove(fd)
    }
}
