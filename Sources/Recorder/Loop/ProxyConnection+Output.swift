import Glibc
import HTTP
import Transport

/// A connection's output and its clocks: sending what waits, pausing and resuming the upstream
/// by it, watching the socket, the deadlines, and closing down.
extension ProxyConnection {
    /// Sends queued answer bytes at once, from inside libcurl's callbacks: one socket action can
    /// read a fast upstream for a long while, and the first streamed byte should not wait for
    /// it. The rest (failure, watching for room) is left to `flush()` at the end of the turn.
    func sendNow() {
        if output.count > 0, isForwarding {
            let sent = output.send(to: fd)
            if sent > 0 { writeDeadline = loop.clock.now + Self.writeTimeout }
        }
        loop.markDirty(self)
    }

    /// Gives up the rest of this thread's time slice once an answer's first body bytes are out.
    /// A client on the same machine is sometimes woken onto this CPU by that send, and would
    /// otherwise wait there until the loop had relayed a slice's worth of the rest (up to a few
    /// milliseconds for a large stream) before it reads the first bytes. One syscall per
    /// answer; when nothing else waits for the CPU it returns at once.
    static func yieldToReader() { _ = sched_yield() }

    /// Sends what the socket takes, then pauses or resumes the transfer by what still waits,
    /// and watches the socket for what comes next.
    func flush() {
        isDirty = false
        guard !isClosed else { return }
        peakOutput = max(peakOutput, output.count)
        if output.count > 0 {
            let sent = output.send(to: fd)
            if sent > 0 || writeDeadline == nil { writeDeadline = loop.clock.now + Self.writeTimeout }
        }
        if output.count == 0 && writeDeadline != nil {
            writeDeadline = nil
            // Idle time counts from when the last answer was out.
            if case .reading(var reading) = phase {
                reading.idleDeadline = loop.clock.now + loop.proxy.configuration.idleTimeout
                phase = .reading(reading)
            }
        }
        if output.failed {
            // The client is gone: the transfer stops (recorded as such) and the connection closes.
            if case .forwarding(let exchange, _) = phase, let transfer = exchange.transfer { loop.multi.cancel(transfer) }
            return loop.close(self)
        }
        switch phase {
        case .closing where output.count == 0:
            return loop.close(self)
        case .refusing(var drain) where output.count == 0 && !drain.shutDown:
            drain.shutDown = true
            drain.deadline = loop.clock.now + .seconds(1)
            phase = .refusing(drain)
            _ = shutdown(fd, Int32(SHUT_WR))
        case .forwarding(let exchange, _):
            // The transfer paused itself when too much waited (`ResponseRelay.pauseRequested`).
            if let transfer = exchange.transfer, exchange.relay.paused, output.count < Self.resumeMark {
                exchange.relay.paused = false
                watch()
                return loop.multi.pause(transfer, false)
            }
        default:
            break
        }
        watch()
    }

    /// Watches the socket for input while a request may come, and for room while output waits.
    func watch() {
        guard !isClosed else { return }
        var mask: UInt32 = 0
        switch phase {
        case .reading, .refusing: mask |= EventPoll.readable
        case .forwarding(_, let inputClosed)
        where !inputClosed && machine.buffer.count < machine.buffer.capacity && machine.unread <= maximumBuffered
            && loop.proxy.budget.allowsReadAhead:
            mask |= EventPoll.readable
        default: break
        }
        if output.count > 0 { mask |= EventPoll.writable }
        guard mask != interest else { return }
        interest = mask
        loop.poll.modify(fd, mask)
    }

    /// Times out a request that arrives too slowly (408), an idle connection, a refusal's
    /// drain, and a peer that reads nothing.
    func checkDeadlines(_ now: ContinuousClock.Instant) {
        if let writeDeadline, now >= writeDeadline { return loop.close(self) }
        switch phase {
        case .reading(let reading) where machine.isPartial && now >= reading.requestDeadline:
            refuse(.timeout("request not received within \(loop.proxy.configuration.readTimeout)"))
        case .reading(let reading) where !machine.isPartial && output.count == 0 && now >= reading.idleDeadline:
            loop.close(self)
        case .refusing(let drain) where now >= drain.deadline:
            loop.close(self)
        case .forwarding:
            checkSilence(now)
        default:
            break
        }
    }

    /// Ends the exchange when its transfer moved nothing for `upstreamTimeout`: no request byte
    /// sent, no header or body byte received. Time the transfer spent paused for a slow client
    /// does not count.
    private func checkSilence(_ now: ContinuousClock.Instant) {
        guard let limit = loop.proxy.configuration.upstreamTimeout, case .forwarding(let current, _) = phase,
            let transfer = current.transfer, let activity = loop.multi.activity(transfer)
        else { return }
        if current.relay.paused || activity != current.activitySeen {
            current.activitySeen = activity
            current.silentSince = now
            return
        }
        guard now - current.silentSince >= limit else { return }
        let waited = current.relay.status == 0 ? "its answer" : "the rest of its answer"
        loop.multi.expire(transfer, "the upstream sent nothing for \(limit) while the exchange waited for \(waited)")
    }

    /// Marks the connection closed and abandons its transfer (called by the loop as it closes it).
    func closeDown() {
        var abandoned: Exchange?
        if case .forwarding(let exchange, _) = phase { abandoned = exchange }
        phase = .closed(abandoned: abandoned)
        loop.proxy.notePeakOutput(peakOutput)
        output.fail()
        if let transfer = abandoned?.transfer { loop.multi.cancel(transfer) }
        // After the cancel, whose completion runs now: nothing it does is charged any more.
        loop.proxy.budget.refund(charged)
        charged = 0
    }
}
