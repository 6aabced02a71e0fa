internal import CCurl
import Foundation
import Synchronization

/// A streamed answer read line by line (NDJSON), on its own libcurl easy handle and its own
/// thread, for an answer that stays open (PowerSync's `POST /sync/stream`). Lines arrive as the
/// server flushes them; the transfer ends when the server closes, when `close()` is called (at
/// the next bytes or libcurl's next progress call, within about a second even on a silent
/// stream), or when nothing arrives for `silence` seconds (libcurl's low-speed limit).
public final class LineStream: Sendable {
    /// How the transfer ended: the final status (0 when no head came) and the failure, if any.
    public struct Ending: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Why it failed, if it did (a silence is one).
        public var error: TransportError?
    }

    /// The lines, without their `\n`, in order.
    public let lines: AsyncStream<[UInt8]>
    private let splitter: LineSplitter

    /// Starts the request.
    /// - Parameters:
    ///   - method: the method, e.g. "POST".
    ///   - url: the absolute URL.
    ///   - headers: request headers.
    ///   - body: the request body.
    ///   - silence: seconds without a byte after which the transfer ends.
    public init(_ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8] = [], silence: Int = 5) {
        let (lines, continuation) = AsyncStream<[UInt8]>.makeStream()
        self.lines = lines
        let splitter = LineSplitter(continuation)
        self.splitter = splitter
        Thread.detachNewThread {
            splitter.run(method, url, headers: headers, body: body, silence: silence)
        }
    }

    /// Ends the transfer (the client hangs up): at the next bytes the server sends, or at
    /// libcurl's next progress call (about once a second while nothing arrives).
    public func close() { splitter.closed.store(true, ordering: .releasing) }

    /// How the transfer ended, once `lines` has finished (nil before).
    public var ending: Ending? { splitter.ending.withLock { $0 } }
}

/// The transfer's state, shared by the transfer thread and the stream's owner.
final class LineSplitter: Sendable {
    let continuation: AsyncStream<[UInt8]>.Continuation
    let closed = Atomic<Bool>(false)
    let ending = Mutex<LineStream.Ending?>(nil)
    private let pending = Mutex<[UInt8]>([])

    init(_ continuation: AsyncStream<[UInt8]>.Continuation) { self.continuation = continuation }

    func run(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8], silence: Int) {
        guard let handle = curl_easy_init() else {
            finish(LineStream.Ending(status: 0, error: .setup("curl_easy_init failed")))
            return
        }
        defer { curl_easy_cleanup(handle) }
        let code = WholeRequest.with(handle, method: method, url: url, headers: headers, body: body) {
            _ = accord_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = accord_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, silence))
            _ = accord_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, LineSplitter.write)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
            _ = accord_curl_setopt_xferinfo(handle, LineSplitter.progress, Unmanaged.passUnretained(self).toOpaque())
            return curl_easy_perform(handle)
        }
        var status = 0
        _ = accord_curl_response_code(handle, &status)
        let rest = pending.withLock { bytes in
            defer { bytes = [] }
            return bytes
        }
        if !rest.isEmpty { continuation.yield(rest) }
        let error: TransportError? =
            switch code {
            case CURLE_OK: nil
            case CURLE_WRITE_ERROR where closed.load(ordering: .acquiring),
                CURLE_ABORTED_BY_CALLBACK where closed.load(ordering: .acquiring):
                nil
            case CURLE_OPERATION_TIMEDOUT: .silence("nothing arrived for \(silence) s")
            default: .transfer(String(cString: curl_easy_strerror(code)))
            }
        finish(LineStream.Ending(status: status, error: error))
    }

    private func finish(_ end: LineStream.Ending) {
        ending.withLock { $0 = end }
        continuation.finish()
    }

    /// Splits what arrived into lines and hands each on; 0 (abort) once closed.
    private func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if closed.load(ordering: .acquiring) { return false }
        let lines = pending.withLock { buffer -> [[UInt8]] in
            buffer.append(contentsOf: bytes)
            var lines: [[UInt8]] = []
            while let newline = buffer.firstIndex(of: 0x0A) {
                lines.append(Array(buffer[..<newline]))
                buffer.removeSubrange(...newline)
            }
            return lines
        }
        for line in lines where !line.isEmpty { continuation.yield(line) }
        return true
    }

    /// Aborts a closed transfer even while the server sends nothing.
    static let progress: accord_curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 1 }
        return Unmanaged<LineSplitter>.fromOpaque(context).takeUnretainedValue().closed.load(ordering: .acquiring) ? 1 : 0
    }

    static let write: accord_curl_write_callback = { data, size, count, context in
        CurlWrite.deliver(data, size, count, context) { (splitter: LineSplitter, bytes) in splitter.receive(bytes) } == true
            ? size * count : 0
    }
}
