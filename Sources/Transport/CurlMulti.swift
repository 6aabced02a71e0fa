internal import CCurl
import Glibc

/// Many streamed transfers at once through one libcurl multi handle, driven by the caller's
/// event loop: libcurl says which sockets to watch (`watch`) and when to call back
/// (`deadline`); the loop reports readiness (`socketReady`) and expiry (`timerExpired`).
/// Answers reach each transfer's sink from inside those calls, and its completion after them.
/// Used only on the loop's thread.
package final class CurlMulti {
    /// What libcurl wants a socket watched for.
    package enum Interest: Sendable, Equatable {
        /// Stop watching the socket: libcurl does not wait on it now. A connection's socket
        /// may stay open, idle, for a later transfer.
        case remove
        /// Readable.
        case read
        /// Writable.
        case write
        /// Readable or writable.
        case readWrite
        /// libcurl opened the socket for a connection; `closing` comes before it closes it.
        case opened
        /// libcurl is about to close the socket, which must not be watched any longer.
        case closing
    }

    /// One transfer in progress, as the caller holds it.
    package struct Transfer: Hashable, Sendable {
        fileprivate let easy: UInt
    }

    private struct Active {
        let handle: StreamingHandle
        let done: (StreamingOutcome) -> Void
    }

    private let multi: UnsafeMutableRawPointer
    private let watch: (Int32, Interest) -> Void
    /// Where each handle reports the connection sockets it opens and closes; kept apart from
    /// `self` because libcurl closes the last ones during `deinit`.
    private let sockets: SocketEvents
    private var active: [UInt: Active] = [:]
    private var idle: [StreamingHandle] = []
    private let maximumIdle: Int
    private let caFile: String?
    /// When libcurl wants `timerExpired()` called, nil for never.
    package private(set) var deadline: ContinuousClock.Instant?

    /// Makes a multi handle.
    /// - Parameters:
    ///   - maximumIdle: the most idle easy handles kept for reuse.
    ///   - caFile: a PEM file of the certificate authorities to trust for https, in place of the
    ///     system's bundle and certificate folder; nil for the system's.
    ///   - watch: called when libcurl wants a socket watched differently.
    package init?(maximumIdle: Int = 64, caFile: String? = nil, watch: @escaping (Int32, Interest) -> Void) {
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.caFile = caFile
        self.watch = watch
        sockets = SocketEvents(watch: watch)
        self.maximumIdle = max(1, maximumIdle)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = accord_curl_multi_setopt_socket(multi, Self.socket)
        _ = accord_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = accord_curl_multi_setopt_timer(multi, Self.timer)
        _ = accord_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        // libcurl's default cache is four connections per easy handle added at the moment, so
        // it shrinks as transfers end and closes upstream connections a moment later needed.
        _ = accord_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, self.maximumIdle)
    }

    deinit {
        for (_, transfer) in active { _ = curl_multi_remove_handle(multi, transfer.handle.handle) }
        idle.removeAll()
        active.removeAll()
        curl_multi_cleanup(multi)
    }

    /// Starts a transfer; its answer goes to `sink` and, when it ends, its outcome to `done`.
    /// - Parameters:
    ///   - request: the request.
    ///   - sink: receives the head and the body pieces.
    ///   - done: called once, from a later `socketReady`, `timerExpired` or `cancel` call.
    /// - Returns: the transfer, or nil when libcurl could not take it (`done` is not called).
    package func start(
        _ request: StreamingRequest, sink: any StreamingResponseSink, done: @escaping (StreamingOutcome) -> Void
    ) -> Transfer? {
        guard let handle = idle.popLast() ?? StreamingHandle(caFile: caFile, sockets: sockets) else { return nil }
        _ = handle.begin(request, sink: sink)
        guard curl_multi_add_handle(multi, handle.handle) == CURLM_OK else {
            _ = handle.end(CURLE_FAILED_INIT)
            return nil
        }
        let key = UInt(bitPattern: handle.handle)
        active[key] = Active(handle: handle, done: done)
        return Transfer(easy: key)
    }

    /// Stops receiving for a transfer (its sink has enough waiting) or starts again.
    /// - Parameters:
    ///   - transfer: the transfer.
    ///   - paused: true to stop receiving, false to go on.
    package func pause(_ transfer: Transfer, _ paused: Bool) {
        guard let entry = active[transfer.easy] else { return }
        _ = curl_easy_pause(entry.handle.handle, paused ? CURLPAUSE_RECV : CURLPAUSE_CONT)
        if !paused { settle() }
    }

    /// Abandons a transfer for its sink (the client went away): its `done` is called at once
    /// with an outcome stopped by the sink.
    package func cancel(_ transfer: Transfer) {
        finish(transfer.easy, CURLE_ABORTED_BY_CALLBACK, ending: .cancelled)
    }

    /// What a transfer has moved so far: request bytes sent, header and body bytes received. It
    /// grows while the upstream shows any sign of life, so an owner that sees it unchanged for
    /// long knows the upstream went silent.
    /// - Returns: the count, or nil when the transfer has ended.
    package func activity(_ transfer: Transfer) -> Int? {
        guard let entry = active[transfer.easy], let state = entry.handle.state else { return nil }
        var uploaded: curl_off_t = 0
        _ = accord_curl_size_uploaded(entry.handle.handle, &uploaded)
        return state.received + Int(uploaded)
    }

    /// Ends a transfer whose upstream stayed silent too long: its `done` is called at once with
    /// a `TransportError` for which `isSilence` holds.
    /// - Parameters:
    ///   - transfer: the transfer.
    ///   - detail: what went silent for how long, for the error.
    package func expire(_ transfer: Transfer, _ detail: String) {
        finish(transfer.easy, CURLE_OPERATION_TIMEDOUT, ending: .expired(detail))
    }

    /// Reports a watched socket ready.
    /// - Parameters:
    ///   - fd: the socket.
    ///   - readable: readable or hung up.
    ///   - writable: writable.
    ///   - failed: in error.
    package func socketReady(_ fd: Int32, readable: Bool, writable: Bool, failed: Bool) {
        var mask: Int32 = 0
        if readable { mask |= CURL_CSELECT_IN }
        if writable { mask |= CURL_CSELECT_OUT }
        if failed { mask |= CURL_CSELECT_ERR }
        act(fd, mask)
    }

    /// Tells libcurl its timer expired (call when `deadline` has passed).
    package func timerExpired() {
        // libcurl's timer fires once: clear it so a stale value never brings us back.
        deadline = nil
        act(CURL_SOCKET_TIMEOUT, 0)
    }

    private func act(_ socket: curl_socket_t, _ mask: Int32) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, mask, &running)
        settle()
    }

    /// Ends the transfers libcurl finished, then hands gathered body bytes on.
    private func settle() {
        // Finished transfers first: `end` hands their last bytes on, and a handle finished here
        // may be reused (under the same key) by a transfer its completion starts.
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finish(UInt(bitPattern: easy), accord_curl_message_result(message))
        }
        for (key, entry) in active {
            guard let state = entry.handle.state, !state.flush() else { continue }
            finish(key, CURLE_ABORTED_BY_CALLBACK)
        }
    }

    /// Why the owner ended a transfer libcurl had not finished.
    private enum Ending {
        case cancelled
        case expired(String)
    }

    private func finish(_ key: UInt, _ code: CURLcode, ending: Ending? = nil) {
        guard let entry = active.removeValue(forKey: key) else { return }
        _ = curl_multi_remove_handle(multi, entry.handle.handle)
        var outcome = entry.handle.end(code)
        switch ending {
        case .cancelled:
            outcome.stoppedBySink = true
            outcome.error = nil
        case .expired(let detail):
            outcome.stoppedBySink = false
            outcome.error = .silence(detail)
        case nil:
            break
        }
        if idle.count < maximumIdle { idle.append(entry.handle) }
        entry.done(outcome)
    }

    private static let socket: accord_curl_socket_callback = { _, socket, what, context, _ in
        guard let context else { return 0 }
        let multi = Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
        let interest: Interest
        switch what {
        case CURL_POLL_IN: interest = .read
        case CURL_POLL_OUT: interest = .write
        case CURL_POLL_INOUT: interest = .readWrite
        default: interest = .remove
        }
        multi.watch(socket, interest)
        return 0
    }

    private static let timer: accord_curl_timer_callback = { _, milliseconds, context in
        guard let context else { return 0 }
        let multi = Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
        multi.deadline = milliseconds < 0 ? nil : ContinuousClock.now + .milliseconds(milliseconds)
        return 0
    }
}

/// Tells a `CurlMulti`'s watcher which sockets libcurl opens for connections and when it
/// closes them, through each easy handle's socket-option and close-socket callbacks.
final class SocketEvents {
    let watch: (Int32, CurlMulti.Interest) -> Void

    init(watch: @escaping (Int32, CurlMulti.Interest) -> Void) { self.watch = watch }

    static let opened: accord_curl_sockopt_callback = { context, socket, purpose in
        if let context, purpose == CURLSOCKTYPE_IPCXN {
            Unmanaged<SocketEvents>.fromOpaque(context).takeUnretainedValue().watch(socket, .opened)
        }
        return CURL_SOCKOPT_OK
    }

    static let closing: accord_curl_closesocket_callback = { context, socket in
        if let context { Unmanaged<SocketEvents>.fromOpaque(context).takeUnretainedValue().watch(socket, .closing) }
        return Glibc.close(socket)
    }
}
