import Corpus
import Foundation
import HTTP
import JSON
import KizunaWire
import Transport

extension RecordingProxy {
    /// Ends one exchange once its upstream transfer ended: queues what the client still has to
    /// receive (the rest of the answer, a 502, or nothing when the answer is cut short) and
    /// records the exchange. Recording comes first, so that every answer a client saw complete
    /// is in the file (with `.written` or `.synced`), whatever instant the proxy is killed.
    /// - Parameters:
    ///   - outcome: how the transfer ended.
    ///   - request: the client's request.
    ///   - relay: the relay the answer went through.
    ///   - begin: when the request was complete.
    func conclude(_ outcome: StreamingOutcome, request: HTTPRequest, relay: ResponseRelay, begin: ContinuousClock.Instant) {
        let stream = relay.stream
        var note: String?
        // Cut short after its head (the upstream failed mid-body, the client went away): the body
        // recorded is a prefix.
        var cut = false
        var completion: () -> Bool = { stream.finish() }
        /// Answers the client `status` with `body` instead of anything from the upstream.
        func answerLocally(_ status: Int, _ body: [UInt8]) {
            relay.status = status
            relay.headers = [("Content-Type", "application/json")]
            relay.recorded = body
            relay.total = body.count
            completion = { stream.respond(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)) }
        }
        if let fault = relay.framingFault {
            // Refused in its head, before anything reached the client: relaying it would let the
            // client and the upstream disagree on where the answer ends.
            answerLocally(502, Self.framingError(fault))
            note = "upstream answer refused: \(fault)"
        } else if let error = outcome.error, !outcome.headReceived {
            // A silent upstream is a gateway timeout (504); any other failure a bad gateway (502).
            answerLocally(error.isSilence ? 504 : 502, Self.gatewayError(error))
            note = "upstream failed before answering: \(error)"
        } else if let error = outcome.error {
            stream.abort()
            completion = { true }
            note = "upstream failed after \(outcome.bodyBytes) body bytes: \(error)"
            cut = true
        } else if outcome.stoppedBySink {
            stream.abort()
            completion = { true }
            note = "the client went away after \(stream.bodyBytesSent) body bytes"
            cut = true
        }
        var capture = ExchangeCapture(
            request: request, status: relay.status, headers: relay.headers, body: relay.recorded, total: relay.total, note: note,
            begin: begin, duration: .now - begin)
        capture.cut = cut
        capture.arrivals = relay.arrivals
        if configuration.durability == .queued {
            if !completion() { stream.abort() }
            queue.submit(capture)
        } else {
            record(capture)
            if !completion() { stream.abort() }
        }
    }

    /// Builds the exchange as recorded, counts it and hands it to the writer.
    func record(_ capture: ExchangeCapture) {
        let (exchange, encoded) = encodedExchange(capture)
        let client = exchange.client ?? exchange.user ?? capture.request.peer.host
        counters.withLock { counters in
            counters.exchanges += 1
            if capture.note != nil { counters.errors += 1 }
            if counters.clientIDs.count < 100_000, counters.clientIDs.insert(client).inserted { counters.clients += 1 }
        }
        if !writer.append(encodedPieces: encoded, durability: configuration.durability) {
            counters.withLock { $0.errors += 1 }
        }
    }

    /// The request as sent upstream: the client's fields minus hop-by-hop ones, `Host`,
    /// `Content-Length` and `Expect`; the body as received (de-chunked).
    func upstreamRequest(_ request: HTTPRequest) -> StreamingRequest {
        // Hop-by-hop fields stay with the client's connection (`HTTPHeaders.forwardable`); libcurl
        // sets `Host`, `Content-Length` and `Expect` itself for the upstream.
        // One pass into the array sent, none between.
        let named = HTTPHeaders.connectionNamed(request.headers.fields.lazy.map { ($0.name, $0.value) })
        var headers: [(name: String, value: String)] = []
        var octets: [Int: [UInt8]] = [:]
        headers.reserveCapacity(request.headers.count)
        for field in request.headers where HTTPHeaders.isForwarded(field.name, connectionNamed: named) {
            if HTTPHeaders.sameName(field.name, "Host") || HTTPHeaders.sameName(field.name, "Content-Length")
                || HTTPHeaders.sameName(field.name, "Expect")
            {
                continue
            }
            // A value that is not UTF-8 goes on as the client sent it.
            if let bytes = field.octets { octets[headers.count] = bytes }
            headers.append((field.name, field.value))
        }
        let target = request.query.map { "\(request.path)?\($0)" } ?? request.path
        var upstream = StreamingRequest(method: request.method, url: configuration.upstream + target, headers: headers, body: request.body)
        upstream.octets = octets
        return upstream
    }

    /// The PostgREST-shaped error body of a 502 or 504; names libcurl's reason, never the URL.
    static func gatewayError(_ error: TransportError) -> [UInt8] {
        let object = PostgRESTSurface.errorBody(
            code: "ACCORD_UPSTREAM", message: "the upstream did not answer: \(error)",
            hint: error.isSilence
                ? "the upstream answered nothing in time; raise --upstream-timeout if it is slow on purpose"
                : "is the --upstream server running and reachable?")
        return Array(CanonicalJSON.compact(object).utf8)
    }

    /// The PostgREST-shaped body of the 502 for an upstream answer with ambiguous framing.
    static func framingError(_ fault: String) -> [UInt8] {
        let object = PostgRESTSurface.errorBody(
            code: "ACCORD_UPSTREAM", message: "the upstream's answer was not relayed: \(fault)",
            hint: "an answer whose length is ambiguous (RFC 9112 §6.3) is never relayed; fix the upstream or what is in front of it")
        return Array(CanonicalJSON.compact(object).utf8)
    }
}

/// Relays the upstream's answer to the client as it arrives and keeps a capped copy of the body
/// for the recording.
final class ResponseRelay: StreamingResponseSink {
    let stream: HTTPResponseStream
    /// The connection's output queue, which `stream` writes to.
    let output: HTTPOutput
    let limit: Int
    var status = 0
    var headers: [(name: String, value: String)] = []
    var recorded: [UInt8] = []
    var total = 0
    /// For an NDJSON answer (`tracksArrivals`): after each piece recorded, the recorded byte
    /// count and when the piece arrived, so each line's arrival can be recorded (`line_ms`).
    var arrivals: [ExchangeCapture.Arrival] = []
    /// Whether to keep `arrivals` (a sync stream's route); off for every other answer.
    var tracksArrivals = false
    /// Called after bytes were queued for the client, so its loop sends them this turn.
    var queued: () -> Void = {}
    /// Called once, after the answer's first body bytes were queued and `queued` sent them, when
    /// more of the body is to come (chunked, or short of its `Content-Length`).
    var firstBodySent: () -> Void = {}
    private var bodyStarted = false
    /// The answer's `Content-Length`; nil when chunked or read to the close.
    private var declaredLength: Int?
    /// Whether the transfer paused itself through `pauseRequested()`; the owner resumes it.
    var paused = false
    /// Why the upstream's head was refused (conflicting framing); nothing of it was relayed.
    var framingFault: String?

    init(stream: HTTPResponseStream, output: HTTPOutput, limit: Int) {
        self.stream = stream
        self.output = output
        self.limit = limit
    }

    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)]) -> Bool {
        receiveHead(status: status, reason: reason, headers: headers, octets: [:])
    }

    func receiveHead(status: Int, reason: String, headers: [(name: String, value: String)], octets: [Int: [UInt8]]) -> Bool {
        self.status = status
        self.headers = headers
        if let fault = Self.framingFault(status: status, headers) {
            framingFault = fault
            return false
        }
        var length: Int?
        var chunked = false
        for (name, value) in headers {
            if HTTPHeaders.sameName(name, "Content-Length") { length = Int(value) }
            if HTTPHeaders.sameName(name, "Transfer-Encoding") { chunked = true }
        }
        // Hop-by-hop fields are not relayed; the head's encoder writes the framing itself.
        let named = HTTPHeaders.connectionNamed(headers)
        var forwarded = HTTPHeaders(capacity: headers.count)
        for (index, (name, value)) in headers.enumerated() where HTTPHeaders.isForwarded(name, connectionNamed: named) {
            // A value that is not UTF-8 goes on as the upstream sent it.
            forwarded.add(HTTPHeaders.Field(name: name, value: value, octets: octets[index]))
        }
        declaredLength = chunked ? nil : length
        return stream.sendHead(status: status, reason: reason, headers: forwarded, contentLength: declaredLength)
    }

    func pauseRequested() -> Bool {
        // Too much already waits for the client: libcurl keeps the rest until resumed.
        guard output.count > ProxyConnection.pauseMark else { return false }
        paused = true
        return true
    }

    func awaitingBody() -> Bool {
        defer { queued() }
        return stream.flush()
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        total += bytes.count
        if recorded.count < limit {
            recorded.append(contentsOf: bytes.prefix(limit - recorded.count))
            if tracksArrivals { arrivals.append(ExchangeCapture.Arrival(end: recorded.count, at: .now)) }
        }
        // A body whole in its first piece (most `Content-Length` answers) leaves nothing to yield for.
        let first = !bodyStarted && declaredLength.map { total < $0 } ?? true
        bodyStarted = true
        defer {
            queued()
            if first { firstBodySent() }
        }
        return stream.send(bytes)
    }
}

extension ResponseRelay {
    /// What makes an upstream head's framing ambiguous, or nil: `Content-Length` values that
    /// disagree or are not numbers, or a `Content-Length` next to `Transfer-Encoding` (RFC 9112
    /// §6.3 calls both unrecoverable errors for a proxy). Equal repeated values are allowed.
    /// - Parameters:
    ///   - status: the answer's status.
    ///   - headers: its fields as received.
    /// - Returns: the fault, for the client's 502 and the recording's `:accord-error`.
    static func framingFault(status: Int, _ headers: [(name: String, value: String)]) -> String? {
        var lengths: [String] = []
        var encoded = false
        for (name, value) in headers {
            if HTTPHeaders.sameName(name, "Transfer-Encoding") { encoded = true }
            guard HTTPHeaders.sameName(name, "Content-Length") else { continue }
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                lengths.append(HTTPHeaders.trimmed(part))
            }
        }
        guard let first = lengths.first else { return nil }
        if encoded { return "answer \(status) has both Content-Length and Transfer-Encoding" }
        if let bad = lengths.first(where: { $0.isEmpty || $0.count > 18 || !$0.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) }) {
            return "answer \(status) has a Content-Length that is not a number: \"\(bad)\""
        }
        if lengths.contains(where: { Int($0) != Int(first) }) {
            return "answer \(status) has conflicting Content-Length values: \(lengths.joined(separator: ", "))"
        }
        return nil
    }
}
