internal import CCurl
import Foundation

/// An HTTP/1.1 client on libcurl: one easy handle, reused so that connections stay alive
/// between requests. An actor, because a libcurl handle serves one request at a time; each
/// blocking transfer runs on its own thread, never on the concurrency pool, so a server in the
/// same process (a test's mock, an embedded peer) keeps being served while a request waits.
public actor CurlSession {
    private let easy: EasyHandle

    /// Makes a session.
    /// - Throws: `TransportError` when libcurl cannot be initialized.
    public init() throws(TransportError) {
        guard let easy = EasyHandle() else { throw TransportError.setup("curl_easy_init failed") }
        self.easy = easy
    }

    /// Sends a request and reads the whole answer.
    /// - Parameters:
    ///   - method: the method, e.g. "POST".
    ///   - url: the absolute URL.
    ///   - headers: request headers, in order.
    ///   - body: the request body.
    ///   - timeout: seconds before the request is abandoned.
    /// - Returns: the status and body.
    /// - Throws: `TransportError` for a network failure (never for an HTTP error status).
    public func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8] = [], timeout: Double = 10
    ) async throws(TransportError) -> ClientResponse {
        let easy = self.easy
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ClientResponse, TransportError>, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(TransportError) in
                        try easy.perform(method, url, headers: headers, body: body, timeout: timeout)
                    })
            }
        }
        return try result.get()
    }
}

/// One libcurl easy handle, owned by one `CurlSession` actor and used only on it.
final class EasyHandle: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    /// Serializes transfers: the actor hops off while a transfer runs, so two may be asked for.
    private let busy = NSLock()
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init?() {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    func perform(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8], timeout: Double) throws(TransportError)
        -> ClientResponse
    {
        busy.lock()
        defer { busy.unlock() }
        curl_easy_reset(handle)
        let sink = ResponseBuffer()
        let code = WholeRequest.with(handle, method: method, url: url, headers: headers, body: body) {
            _ = accord_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, CurlMilliseconds.from(seconds: timeout))
            _ = accord_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, ResponseBuffer.write)
            _ = accord_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
            return curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            throw TransportError.network(url, String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        _ = accord_curl_response_code(handle, &status)
        return withExtendedLifetime(sink) { ClientResponse(status: status, body: sink.bytes) }
    }
}

/// An answer read by `CurlSession`.
public struct ClientResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: [UInt8]
}

final class ResponseBuffer {
    var bytes: [UInt8] = []

    static let write: accord_curl_write_callback = { data, size, count, context in
        CurlWrite.deliver(data, size, count, context) { (buffer: ResponseBuffer, bytes) in buffer.bytes.append(contentsOf: bytes) }
            .map { size * count } ?? 0
    }
}

/// A request that did not complete: the client could not be set up, or the network failed.
public struct TransportError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable { case setup, network, transfer, silence }
    private let code: Code
    private let detail: String

    /// A client that could not be set up.
    package static func setup(_ detail: String) -> TransportError { TransportError(code: .setup, detail: detail) }

    static func network(_ url: String, _ reason: String) -> TransportError { TransportError(code: .network, detail: "\(url): \(reason)") }

    /// A failed streamed transfer, described without its URL (which may carry a secret).
    static func transfer(_ reason: String) -> TransportError { TransportError(code: .transfer, detail: reason) }

    /// A streamed transfer ended because the upstream sent nothing for too long.
    package static func silence(_ detail: String) -> TransportError { TransportError(code: .silence, detail: detail) }

    /// Whether the transfer was ended because the upstream went silent (a gateway timeout).
    public var isSilence: Bool { code == .silence }

    /// What happened.
    public var description: String {
        switch code {
        case .setup: "HTTP client setup failed: \(detail)"
        case .network: "HTTP request failed: \(detail)"
        case .transfer: "HTTP transfer failed: \(detail)"
        case .silence: "HTTP transfer timed out: \(detail)"
        }
    }
}
