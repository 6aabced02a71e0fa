internal import CCurl
import Synchronization

/// An HTTP/1.1 client on libcurl that hands the answer over as it arrives: the head first,
/// then the body in pieces. Transfers block the calling thread, so call it from a thread you
/// own (a server's connection thread), never from the concurrency pool. Idle easy handles are
/// kept in a pool and reused, so their upstream connections stay alive between transfers.
public final class CurlStreamingClient: Sendable {
    private let idle = Mutex<[StreamingHandle]>([])
    private let maximumIdle: Int

    /// Makes a client.
    /// - Parameter maximumIdle: the most idle handles (and so upstream connections) kept for reuse.
    /// - Throws: `TransportError` when libcurl cannot be initialized.
    public init(maximumIdle: Int = 64) throws(TransportError) {
        guard let first = StreamingHandle() else { throw TransportError.setup("curl_easy_init failed") }
        self.maximumIdle = max(1, maximumIdle)
        idle.withLock { $0.append(first) }
    }

    /// Runs one transfer on the calling thread, handing the answer to `sink` as it arrives.
    /// - Parameters:
    ///   - request: the request.
    ///   - sink: receives the head and the body pieces.
    /// - Returns: how the transfer ended; a failure is described without the URL.
    public func transfer(_ request: StreamingRequest, to sink: some StreamingResponseSink) -> StreamingOutcome {
        let taken = idle.withLock { $0.popLast() }
        guard let handle = taken ?? StreamingHandle() else {
            return StreamingOutcome(status: 0, bodyBytes: 0, stoppedBySink: false, error: .setup("curl_easy_init failed"))
        }
        let outcome = handle.perform(request, sink: sink)
        idle.withLock { handles in
            if handles.count < maximumIdle { handles.append(handle) }
        }
        return outcome
    }
}

/// One libcurl easy handle of the pool; used by one transfer at a time.
final class StreamingHandle: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    private let loop: CurlSocketLoop
    /// The body-gathering buffer of `TransferState`, kept between transfers (up to about 128 KiB).
    private var gathered: [UInt8] = []
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init?() {
        guard Self.globalInit, let loop = CurlSocketLoop(), let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.loop = loop
        // What every transfer shares is set once; `perform` sets the rest each time.
        _ = accord_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1)
        _ = accord_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        _ = accord_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = accord_curl_setopt_string(handle, CURLOPT_NOPROXY, "*")
        _ = accord_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        _ = accord_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION, Self.header)
        _ = accord_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, Self.write)
        // No progress callback: the socket loop hands gathered bytes on before each wait.
        _ = accord_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 1)
    }

    deinit { curl_easy_cleanup(handle) }

    func perform(_ request: StreamingRequest, sink: some StreamingResponseSink) -> StreamingOutcome {
        let state = TransferState(sink: sink, buffer: &gathered)
        defer { gathered = state.takeBuffer() }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { list = curl_slist_append(list, "\(name): \(value)") }
        for name in ["Expect", "Accept", "Content-Type"]
        where !request.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            list = curl_slist_append(list, "\(name):")
        }
        defer { curl_slist_free_all(list) }
        let method = request.method
        let sendsBody = !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method)
        let context = Unmanaged.passUnretained(state).toOpaque()
        let code: CURLcode = request.body.withUnsafeBytes { bytes in
            _ = accord_curl_setopt_string(handle, CURLOPT_URL, request.url)
            _ = accord_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
            _ = accord_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
            // Back to a plain GET first: the last transfer's method, body and HEAD flag must
            // not carry over (HTTPGET clears the upload and no-body state).
            _ = accord_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
            _ = accord_curl_setopt_long(handle, CURLOPT_NOBODY, 0)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil)
            if method == "HEAD" {
                _ = accord_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
            } else if method == "GET" && !sendsBody {
                _ = accord_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
            } else {
                _ = accord_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
            }
            if sendsBody {
                _ = accord_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                if let base = bytes.baseAddress {
                    _ = accord_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: base))
                } else {
                    _ = accord_curl_setopt_string(handle, CURLOPT_POSTFIELDS, "")
                }
            }
            _ = accord_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            // Gathered body bytes go to the sink whenever libcurl waits for the network.
            return loop.run(handle) { state.flush() }
        }
        return withExtendedLifetime(state) {
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
    }

    private static let header: accord_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let accepted = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            state.headerLine(UnsafeBufferPointer(start: $0, count: length))
        }
        return accepted ? length : 0
    }

    private static let write: accord_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let accepted = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            state.body(UnsafeBufferPointer(start: $0, count: length))
        }
        return accepted ? length : 0
    }
}
