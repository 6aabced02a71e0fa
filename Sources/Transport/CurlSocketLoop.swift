internal import CCurl
import Glibc

/// Runs one easy handle at a time through its own multi handle, waiting with `poll(2)` on
/// exactly the sockets and timer libcurl asks for. Compared with `curl_easy_perform`, whose
/// internal loop polls a wake-up socket and checks the connection with a zero-timeout poll
/// before each send and each receive, a transfer costs three polls: libcurl's liveness check of
/// a reused connection, its check after sending, and the wait for the answer. The multi handle owns the connection cache,
/// so connections are reused between transfers as before.
final class CurlSocketLoop {
    private let multi: UnsafeMutableRawPointer
    /// The sockets libcurl wants watched and for what (`CURL_POLL_IN`, `_OUT`, `_INOUT`).
    fileprivate var sockets: [(fd: Int32, what: Int32)] = []
    /// Milliseconds until libcurl wants `CURL_SOCKET_TIMEOUT`, -1 for none.
    fileprivate var timeout = -1

    init?() {
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = accord_curl_multi_setopt_socket(multi, Self.socket)
        _ = accord_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = accord_curl_multi_setopt_timer(multi, Self.timer)
        _ = accord_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
    }

    deinit { curl_multi_cleanup(multi) }

    /// Runs the transfer set up on `easy` to its end.
    /// - Parameters:
    ///   - easy: the easy handle, not in any multi handle.
    ///   - beforeWait: called whenever the loop is about to wait for the network; false stops
    ///     the transfer (it then ends with `CURLE_ABORTED_BY_CALLBACK`).
    /// - Returns: the transfer's result.
    func run(_ easy: UnsafeMutableRawPointer, beforeWait: () -> Bool) -> CURLcode {
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else { return CURLE_FAILED_INIT }
        defer { _ = curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        guard act(CURL_SOCKET_TIMEOUT, 0, &running) else { return CURLE_FAILED_INIT }
        var descriptors: [pollfd] = []
        while running > 0 {
            guard beforeWait() else { return CURLE_ABORTED_BY_CALLBACK }
            if timeout == 0 {
                guard act(CURL_SOCKET_TIMEOUT, 0, &running) else { return CURLE_FAILED_INIT }
                continue
            }
            descriptors.removeAll(keepingCapacity: true)
            for (fd, what) in sockets {
                var events: Int16 = 0
                if what & Int32(CURL_POLL_IN) != 0 { events |= Int16(POLLIN) }
                if what & Int32(CURL_POLL_OUT) != 0 { events |= Int16(POLLOUT) }
                descriptors.append(pollfd(fd: fd, events: events, revents: 0))
            }
            // A second at most: libcurl's own timeouts come through the timer.
            let wait = timeout < 0 ? 1000 : min(timeout, 1000)
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(wait))
            if ready < 0 {
                if errno == EINTR { continue }
                return CURLE_RECV_ERROR
            }
            if ready == 0 {
                guard act(CURL_SOCKET_TIMEOUT, 0, &running) else { return CURLE_FAILED_INIT }
                continue
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                var mask: Int32 = 0
                if descriptor.revents & Int16(POLLIN | POLLHUP) != 0 { mask |= CURL_CSELECT_IN }
                if descriptor.revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
                if descriptor.revents & Int16(POLLERR | POLLNVAL) != 0 { mask |= CURL_CSELECT_ERR }
                // A descriptor no longer open is libcurl's no more: stop watching it.
                if descriptor.revents & Int16(POLLNVAL) != 0 { sockets.removeAll { $0.fd == descriptor.fd } }
                guard act(descriptor.fd, mask, &running) else { return CURLE_FAILED_INIT }
                if running == 0 { break }
            }
        }
        var left: Int32 = 0
        var result = CURLE_OK
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { result = accord_curl_message_result(message) }
        }
        return result
    }

    private func act(_ socket: curl_socket_t, _ mask: Int32, _ running: inout Int32) -> Bool {
        // libcurl's timer fires once: after a timeout action it announces a timer still
        // pending, and says nothing when none is, so the old value must not stay behind (a
        // stale 0 would spin this loop without ever polling).
        if socket == CURL_SOCKET_TIMEOUT { timeout = -1 }
        return curl_multi_socket_action(multi, socket, mask, &running) == CURLM_OK
    }

    private static let socket: accord_curl_socket_callback = { _, socket, what, context, _ in
        guard let context else { return 0 }
        let loop = Unmanaged<CurlSocketLoop>.fromOpaque(context).takeUnretainedValue()
        loop.sockets.removeAll { $0.fd == socket }
        if what != CURL_POLL_REMOVE { loop.sockets.append((socket, what)) }
        return 0
    }

    private static let timer: accord_curl_timer_callback = { _, milliseconds, context in
        guard let context else { return 0 }
        Unmanaged<CurlSocketLoop>.fromOpaque(context).takeUnretainedValue().timeout = milliseconds
        return 0
    }
}
