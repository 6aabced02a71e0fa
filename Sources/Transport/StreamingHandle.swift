internal import CCurl

/// One libcurl easy handle of a `CurlMulti`'s pool; used by one transfer at a time and kept for
/// the next (the multi handle keeps the upstream connections alive between transfers).
final class StreamingHandle {
    let handle: UnsafeMutableRawPointer
    /// The body-gathering buffer of `TransferState`, kept between transfers (up to about 128 KiB).
    private var gathered: [UInt8] = []
    /// The transfer in progress: its state and its header list.
    private(set) var state: TransferState?
    private var headerList = HeaderList()
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Makes a handle.
    /// - Parameters:
    ///   - caFile: a PEM file of the certificate authorities to trust for https, in place of
    ///     the system's bundle and certificate folder; nil for the system's.
    ///   - sockets: where to report the connection sockets libcurl opens and closes, if anywhere.
    init?(caFile: String? = nil, sockets: SocketEvents? = nil) {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        if let caFile {
            _ = accord_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)
            // Debian's libcurl also looks in /etc/ssl/certs by default: only the file is trusted.
            _ = accord_curl_setopt_pointer(handle, CURLOPT_CAPATH, nil)
        }
        if let sockets {
            // The multi handle keeps `sockets` as long as libcurl may close a connection.
            let context = Unmanaged.passUnretained(sockets).toOpaque()
            _ = accord_curl_setopt_sockopt(handle, SocketEvents.opened)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_SOCKOPTDATA, context)
            _ = accord_curl_setopt_closesocket(handle, SocketEvents.closing)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_CLOSESOCKETDATA, context)
        }
        // What every transfer shares is set once; `begin` sets the rest each time.
        _ = accord_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1)
        _ = accord_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        _ = accord_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = accord_curl_setopt_string(handle, CURLOPT_NOPROXY, "*")
        _ = accord_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        _ = accord_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION, Self.header)
        _ = accord_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, Self.write)
        // No progress callback: the multi handle hands gathered bytes on after each action.
        _ = accord_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 1)
    }

    deinit {
        // The handle first: it points at the header list, which goes with this object.
        curl_easy_cleanup(handle)
    }

    /// Sets the handle up for a transfer; the caller then runs it and calls `end`.
    /// - Returns: the transfer's state, whose `flush()` hands gathered body bytes on.
    func begin(_ request: StreamingRequest, sink: any StreamingResponseSink) -> TransferState {
        let state = TransferState(sink: sink, buffer: &gathered)
        self.state = state
        // libcurl's own defaults for these are suppressed unless the client sent them.
        var sends = (expect: false, accept: false, contentType: false)
        for (name, _) in request.headers {
            if Self.sameName(name, "expect") { sends.expect = true }
            if Self.sameName(name, "accept") { sends.accept = true }
            if Self.sameName(name, "content-type") { sends.contentType = true }
        }
        var bare: [StaticString] = []
        if !sends.expect { bare.append("Expect:") }
        if !sends.accept { bare.append("Accept:") }
        if !sends.contentType { bare.append("Content-Type:") }
        let list = headerList.make(request.headers, octets: request.octets, bare)
        let method = request.method
        let sendsBody = !request.body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH"
        let context = Unmanaged.passUnretained(state).toOpaque()
        _ = accord_curl_setopt_string(handle, CURLOPT_URL, request.url)
        _ = accord_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
        _ = accord_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, CurlMilliseconds.from(seconds: request.connectTimeout))
        // Back to a plain GET first: the last transfer's method, body and HEAD flag must
        // not carry over (HTTPGET clears the upload and no-body state).
        _ = accord_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        _ = accord_curl_setopt_long(handle, CURLOPT_NOBODY, 0)
        _ = accord_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil)
        if method == "HEAD" {
            _ = accord_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        } else if method != "GET" || sendsBody {
            _ = accord_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }
        if sendsBody {
            // libcurl keeps its own copy: the request may go away before the transfer ends.
            _ = accord_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, request.body.count)
            request.body.withUnsafeBytes { bytes in
                let base = bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
                _ = accord_curl_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS, base ?? UnsafeMutableRawPointer(mutating: Self.empty.utf8Start))
            }
        }
        _ = accord_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = accord_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        return state
    }

    /// Ends the transfer begun with `begin`: hands on what is gathered and says how it went.
    /// - Parameter code: libcurl's result for the transfer.
    /// - Returns: the outcome; a failure is described without the URL.
    func end(_ code: CURLcode) -> StreamingOutcome {
        guard let state else { return StreamingOutcome(status: 0, bodyBytes: 0, stoppedBySink: false, error: .setup("no transfer")) }
        defer {
            gathered = state.takeBuffer()
            self.state = nil
        }
        let flushed = code == CURLE_OK ? state.flush() : false
        if state.stopped || (code == CURLE_OK && !flushed) {
            return StreamingOutcome(status: state.finalStatus, bodyBytes: state.bodyBytes, stoppedBySink: true, error: nil)
        }
        guard code == CURLE_OK else {
            _ = state.flush()
            let reason = String(cString: curl_easy_strerror(code))
            return StreamingOutcome(
                status: state.finalStatus, bodyBytes: state.bodyBytes, stoppedBySink: state.stopped, error: .transfer(reason))
        }
        return StreamingOutcome(status: state.finalStatus, bodyBytes: state.bodyBytes, stoppedBySink: false, error: nil)
    }

    private static let empty: StaticString = ""

    /// Whether a header name equals a lowercase ASCII name, ignoring case, without allocating.
    static func sameName(_ name: String, _ lowercase: StaticString) -> Bool {
        let bytes = name.utf8
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        var offset = 0
        for byte in bytes {
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if folded != lowercase.utf8Start[offset] { return false }
            offset += 1
        }
        return true
    }

    private static let header: accord_curl_write_callback = { data, size, count, context in
        CurlWrite.deliver(data, size, count, context) { (state: TransferState, bytes) in state.headerLine(bytes) } == true
            ? size * count : 0
    }

    private static let write: accord_curl_write_callback = { data, size, count, context in
        switch CurlWrite.deliver(data, size, count, context, to: { (state: TransferState, bytes) in state.body(bytes) }) {
        case .taken: return size * count
        case nil, .refused: return 0
        case .paused: return Int(CURL_WRITEFUNC_PAUSE)
        }
    }
}
