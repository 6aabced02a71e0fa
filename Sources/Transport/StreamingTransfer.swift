/// A request for `CurlMulti`: sent whole, answered as a stream.
public struct StreamingRequest: Sendable {
    /// The method, e.g. "POST"; "HEAD" asks for no body.
    public var method: String
    /// The absolute URL, http or https.
    public var url: String
    /// Header fields to send, in order. libcurl adds `Host` (unless given) and `Content-Length`;
    /// its own `Accept`, `Content-Type` and `Expect` defaults are suppressed.
    public var headers: [(name: String, value: String)]
    /// Bytes sent for a field's value instead of its UTF-8, by index in `headers`: a value that
    /// was not UTF-8 when received (obs-text), sent on as it came.
    public var octets: [Int: [UInt8]] = [:]
    /// The body; sent with `Content-Length` when not empty or when the method is POST, PUT or PATCH.
    public var body: [UInt8]
    /// Seconds allowed to connect to the upstream (a tuning knob: set it on the value).
    public var connectTimeout: Double = 10

    /// Makes a request, allowed 10 seconds to connect.
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the absolute URL.
    ///   - headers: header fields in order.
    ///   - body: the body.
    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// Receives a streamed answer on the thread of the event loop that drives the transfer.
public protocol StreamingResponseSink: AnyObject {
    /// The final head arrived (interim 1xx heads are skipped).
    /// - Parameters:
    ///   - status: the status code.
    ///   - reason: the reason phrase as sent.
    ///   - headers: the header fields in order.
    /// - Returns: false to abandon the transfer.
    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)]) -> Bool

    /// The final head arrived, with the bytes of the values that are not UTF-8 (by index in
    /// `headers`; such a value reads each byte as its ISO-8859-1 character). By default, the
    /// head without them.
    /// - Returns: false to abandon the transfer.
    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)], octets: [Int: [UInt8]]) -> Bool

    /// Body bytes, de-chunked but not decoded (a `Content-Encoding` is left as sent), handed over
    /// after each socket action of the multi handle, or whenever 64 KiB have gathered.
    /// - Parameter bytes: the bytes, valid during the call only.
    /// - Returns: false to abandon the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// The head arrived and libcurl now waits for the body: the moment to send on a head held back.
    /// - Returns: false to abandon the transfer.
    func awaitingBody() -> Bool

    /// Asked before body bytes are gathered again after a hand-on (the only time the sink's
    /// backlog grows): true pauses the transfer (libcurl keeps the bytes) until its owner resumes
    /// it, for a sink whose reader is behind.
    /// - Returns: whether to pause.
    func pauseRequested() -> Bool
}

extension StreamingResponseSink {
    /// Hands on the head without the bytes of values that are not UTF-8.
    /// - Returns: what `receiveHead(status:reason:headers:)` returns.
    public func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)], octets: [Int: [UInt8]]) -> Bool {
        receiveHead(status: status, reason: reason, headers: headers)
    }

    /// Does nothing: a sink that sends the head at once has nothing to do here.
    /// - Returns: true.
    public func awaitingBody() -> Bool { true }

    /// Never pauses: a sink that sends as it receives waits in its own calls.
    /// - Returns: false.
    public func pauseRequested() -> Bool { false }
}

/// How a streamed transfer ended.
public struct StreamingOutcome: Sendable {
    /// The final status, 0 when no head arrived.
    public var status: Int
    /// The body bytes handed to the sink.
    public var bodyBytes: Int
    /// Whether the sink abandoned the transfer (its head or body call returned false).
    public var stoppedBySink: Bool
    /// The failure, nil when the transfer completed or the sink stopped it.
    public var error: TransportError?

    /// Whether a final head was received.
    public var headReceived: Bool { status != 0 }
}

/// The state the libcurl callbacks of one transfer share: header lines until the final head,
/// then body bytes gathered and handed to the sink in batches.
final class TransferState {
    let sink: any StreamingResponseSink
    private var status = 0
    private var reason = ""
    private var headers: [(name: String, value: String)] = []
    /// The bytes of header values that are not UTF-8, by index in `headers`.
    private var octets: [Int: [UInt8]] = [:]
    private(set) var headDelivered = false
    private(set) var stopped = false
    private(set) var bodyBytes = 0
    /// Header lines (interim heads and trailers included) and body bytes received so far: any
    /// sign of life from the upstream.
    private(set) var received = 0
    private var headFlushed = false
    private var bodyStarted = false
    /// Body bytes not handed on yet; the pooled handle's buffer, lent for the transfer.
    private(set) var pending: [UInt8]
    static let batch = 64 * 1024

    /// Makes the state of one transfer.
    /// - Parameters:
    ///   - sink: receives the answer.
    ///   - buffer: an empty buffer to gather body bytes in, kept by the caller between transfers
    ///     so that no transfer allocates one.
    convenience init(sink: any StreamingResponseSink) {
        var none: [UInt8] = []
        self.init(sink: sink, buffer: &none)
    }

    init(sink: any StreamingResponseSink, buffer: inout [UInt8]) {
        self.sink = sink
        pending = []
        swap(&pending, &buffer)
        pending.removeAll(keepingCapacity: true)
    }

    /// Hands the gathering buffer back, emptied, keeping its capacity.
    func takeBuffer() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &pending)
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    var finalStatus: Int { headDelivered ? status : 0 }

    /// One header line from libcurl, CRLF included; false stops the transfer.
    func headerLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        received += line.count
        if headDelivered { return true }  // trailers
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            guard status >= 200 || status == 101 else { return true }  // an interim head: wait for the final one
            headDelivered = true
            if !sink.receiveHead(status: status, reason: reason, headers: headers, octets: octets) { stopped = true }
            return !stopped
        }
        let text = UnsafeBufferPointer(rebasing: line[0..<end])
        if end >= 5, text[0] == 0x48, text[1] == 0x54, text[2] == 0x54, text[3] == 0x50, text[4] == 0x2F {  // "HTTP/"
            (status, reason) = Self.statusLine(text)
            headers.removeAll()
            octets.removeAll()
            return true
        }
        if text[0] == 0x20 || text[0] == 0x09 {
            // An obsolete folded line continues the last field's value.
            guard !headers.isEmpty else { return true }
            let last = headers.count - 1
            let more = Self.trimmedBytes(text, from: 0)
            if octets[last] != nil || String(validating: more, as: UTF8.self) == nil {
                let joined = (octets[last] ?? Array(headers[last].value.utf8)) + [0x20] + more
                octets[last] = joined
                headers[last].value = Self.latin1(joined)
            } else {
                headers[last].value += " " + String(decoding: more, as: UTF8.self)
            }
            return true
        }
        guard let colon = text.firstIndex(of: 0x3A) else { return true }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[0..<colon]), as: UTF8.self)
        let value = Self.trimmedBytes(text, from: colon + 1)
        if let decoded = String(validating: value, as: UTF8.self) {
            headers.append((name, decoded))
        } else {
            octets[headers.count] = Array(value)
            headers.append((name, Self.latin1(value)))
        }
        return true
    }

    /// Each byte read as the ISO-8859-1 character of its number: a header value that is not
    /// UTF-8, without a U+FFFD in place of any byte.
    static func latin1(_ bytes: some Collection<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// The status code and reason phrase of a status line such as `HTTP/1.1 200 OK`.
    static func statusLine(_ text: UnsafeBufferPointer<UInt8>) -> (Int, String) {
        guard var index = text.firstIndex(of: 0x20) else { return (0, "") }
        while index < text.count, text[index] == 0x20 { index += 1 }
        var code = 0
        var digits = 0
        while index < text.count, (0x30...0x39).contains(text[index]), digits < 3 {
            code = code * 10 + Int(text[index] - 0x30)
            digits += 1
            index += 1
        }
        guard digits == 3, index == text.count || text[index] == 0x20 else { return (0, "") }
        while index < text.count, text[index] == 0x20 { index += 1 }
        return (code, String(decoding: UnsafeBufferPointer(rebasing: text[index...]), as: UTF8.self))
    }

    /// The bytes after `start`, spaces and tabs trimmed at both ends.
    static func trimmedBytes(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
        var lower = start
        var upper = text.count
        while lower < upper, text[lower] == 0x20 || text[lower] == 0x09 { lower += 1 }
        while upper > lower, text[upper - 1] == 0x20 || text[upper - 1] == 0x09 { upper -= 1 }
        return text[lower..<upper]
    }

    /// What to do with body bytes libcurl offers.
    enum Taken {
        case taken
        case refused
        case paused
    }

    /// Body bytes from libcurl: taken, refused (the transfer stops), or left with libcurl while
    /// the sink asks for a pause.
    func body(_ bytes: UnsafeBufferPointer<UInt8>) -> Taken {
        guard !stopped else { return .refused }
        received += bytes.count
        // The sink's backlog grows only when gathered bytes are handed on, so it is asked once
        // per batch (when nothing is gathered), not for each of a stream's many small chunks.
        if pending.isEmpty, sink.pauseRequested() {
            // Hand on what is gathered first: the sink resumes once it has sent it.
            return flush() ? .paused : .refused
        }
        return take(bytes) ? .taken : .refused
    }

    private func take(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        pending.append(contentsOf: bytes)
        // The first piece goes at once (the first byte should not wait for a batch); later
        // ones gather until libcurl waits for the network or a batch is full.
        defer { bodyStarted = true }
        return (bodyStarted && pending.count < Self.batch) || flush()
    }

    /// Hands gathered body bytes to the sink; false when it stopped the transfer.
    func flush() -> Bool {
        guard !stopped else { return false }
        guard !pending.isEmpty else {
            guard headDelivered, !headFlushed else { return true }
            headFlushed = true
            if !sink.awaitingBody() { stopped = true }
            return !stopped
        }
        headFlushed = true
        bodyBytes += pending.count
        let accepted = pending.withUnsafeBytes { sink.receiveBody($0) }
        pending.removeAll(keepingCapacity: true)
        if !accepted { stopped = true }
        return accepted
    }
}

extension StreamingOutcome {
    /// The outcome of a transfer libcurl would not start.
    /// - Returns: an outcome with no head and a setup error.
    package static func notStarted(_ reason: String) -> StreamingOutcome {
        StreamingOutcome(status: 0, bodyBytes: 0, stoppedBySink: false, error: .setup(reason))
    }
}
