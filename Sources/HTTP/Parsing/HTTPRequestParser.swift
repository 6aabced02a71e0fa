/// Parses one HTTP/1.0 or HTTP/1.1 request from the front of a byte buffer, strictly: CRLF line
/// ends only, no obsolete line folding, exactly one Host on HTTP/1.1, no Content-Length next to
/// Transfer-Encoding, and the limits of `HTTPLimits`. A connection keeps an `HTTPParseProgress`
/// and passes it to each parse of the same request as more bytes arrive: the parse goes on
/// from where the last one stopped, so a request costs one pass over its bytes however it is
/// split. After a complete request the caller parses the remainder (pipelining).
public struct HTTPRequestParser: Sendable {
    /// What the front of a buffer holds.
    public enum Outcome: Sendable, Hashable {
        /// Not a whole request yet; `expectsContinue` once the head asked for `100 Continue`.
        case incomplete(expectsContinue: Bool)
        /// A whole request and the number of bytes it took.
        case complete(HTTPRequest, consumed: Int)
        /// A request the server refuses; answer `error.status` and close.
        case failed(HTTPError)
    }

    private enum BodyFraming {
        case none
        case length(Int)
        case chunked
    }

    /// The limits enforced.
    public var limits: HTTPLimits

    /// Makes a parser.
    /// - Parameter limits: the limits to enforce.
    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Parses the request at the front of `bytes` in one go, keeping no progress.
    /// - Parameter bytes: the bytes received and not yet consumed.
    /// - Returns: incomplete, a complete request with its length, or the refusal.
    public func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        var progress = HTTPParseProgress()
        return parse(bytes, resuming: &progress)
    }

    /// Parses the request at the front of `bytes`, going on from `progress`, which must come from
    /// earlier parses of the same request (the same first byte, fewer bytes) or be fresh.
    /// - Parameters:
    ///   - bytes: the bytes received and not yet consumed, from the request's first byte.
    ///   - progress: where the last parse stopped; fresh again once the request is complete or
    ///     refused.
    /// - Returns: incomplete, a complete request with its length, or the refusal.
    public func parse(_ bytes: ArraySlice<UInt8>, resuming progress: inout HTTPParseProgress) -> Outcome {
        do throws(HTTPError) {
            let outcome = try advance(bytes, &progress)
            if case .complete = outcome { progress.reset() }
            return outcome
        } catch {
            progress.reset()
            return .failed(error)
        }
    }

    /// Runs the state machine over the bytes not yet looked at, one transition per step.
    private func advance(_ bytes: ArraySlice<UInt8>, _ progress: inout HTTPParseProgress) throws(HTTPError) -> Outcome {
        while true {
            switch progress.state {
            case .requestLine(let lineStart, let scanned):
                guard let (parts, headStart) = try requestLine(bytes, lineStart, scanned, &progress) else {
                    return .incomplete(expectsContinue: false)
                }
                progress.state = .headerFields(parts, FieldLines(start: headStart))
            case .headerFields(let parts, var fields):
                progress.state = .moving
                let end = try fields.read(bytes, limits: limits, examined: &progress.bytesExamined)
                guard let end else {
                    progress.state = .headerFields(parts, fields)
                    return .incomplete(expectsContinue: false)
                }
                let headers = HTTPHeaders(fields.fields)
                try singleAuthorization(headers)
                let head = HTTPParseProgress.RequestHead(
                    line: parts, headers: headers, expectsContinue: try expectation(headers, version: parts.version))
                switch try bodyFraming(headers, version: parts.version) {
                case .none: return complete(head, body: [], end: end)
                case .length(let length): progress.state = .fixedBody(head, bodyStart: end, length: length)
                case .chunked: progress.state = .chunkedBody(head, ChunkedBody(start: end))
                }
            case .fixedBody(let head, let bodyStart, let length):
                guard bytes.count - bodyStart >= length else {
                    return .incomplete(expectsContinue: head.expectsContinue)
                }
                let from = bytes.startIndex + bodyStart
                progress.bytesExamined += length
                return complete(head, body: Array(bytes[from..<(from + length)]), end: bodyStart + length)
            case .chunkedBody(let head, var chunked):
                // Out of `progress` while it decodes, so that the decoded data is not shared
                // (and copied whole) when it grows.
                progress.state = .moving
                switch try chunked.decode(bytes, limits: limits, examined: &progress.bytesExamined) {
                case .needsMore:
                    progress.state = .chunkedBody(head, chunked)
                    return .incomplete(expectsContinue: head.expectsContinue)
                case .complete(let end):
                    return complete(head, body: chunked.takeBody(), end: end)
                }
            case .moving:
                throw .badRequest("the parser was resumed in the middle of a step")
            }
        }
    }

    private func complete(_ head: HTTPParseProgress.RequestHead, body: [UInt8], end: Int) -> Outcome {
        let line = head.line
        let request = HTTPRequest(method: line.method, target: line.target, version: line.version, headers: head.headers, body: body)
        return .complete(request, consumed: end)
    }

    /// The request line, once its LF has arrived: its parts and the offset after it.
    private func requestLine(
        _ bytes: ArraySlice<UInt8>, _ lineStart: Int, _ scanned: Int, _ progress: inout HTTPParseProgress
    ) throws(HTTPError) -> (HTTPParseProgress.RequestLineParts, Int)? {
        let base = bytes.startIndex
        let available = bytes.count
        var position = lineStart
        var scanned = scanned
        // A server ignores empty lines before a request line (RFC 9112 §2.2).
        while position + 1 < available, bytes[base + position] == ByteClass.cr, bytes[base + position + 1] == ByteClass.lf {
            position += 2
            scanned = 0
            progress.bytesExamined += 2
            if position > limits.requestLine { throw .badRequest("too many empty lines before the request") }
        }
        let lineLimit = min(available, position + limits.requestLine + 2)
        let from = position + scanned
        guard from < lineLimit, let found = bytes[(base + from)..<(base + lineLimit)].firstIndex(of: ByteClass.lf) else {
            progress.bytesExamined += max(0, lineLimit - from)
            if available - position > limits.requestLine + 1 { throw .uriTooLong("request line over \(limits.requestLine) bytes") }
            progress.state = .requestLine(lineStart: position, scanned: max(scanned, lineLimit - position))
            return nil
        }
        let lineEnd = found - base
        progress.bytesExamined += (lineEnd + 1 - from) + (lineEnd - position)
        guard lineEnd > position, bytes[found - 1] == ByteClass.cr else { throw .badRequest("request line not ended by CRLF") }
        if lineEnd - 1 - position > limits.requestLine { throw .uriTooLong("request line over \(limits.requestLine) bytes") }
        let (method, target, version) = try RequestLine.parse(bytes[(base + position)..<(found - 1)])
        return (HTTPParseProgress.RequestLineParts(method: method, target: target, version: version), lineEnd + 1)
    }

    private func bodyFraming(_ headers: HTTPHeaders, version: HTTPVersion) throws(HTTPError) -> BodyFraming {
        let hosts = headers.values(for: "Host")
        if version == .http11 && hosts.count != 1 { throw .badRequest("an HTTP/1.1 request carries exactly one Host header") }
        if hosts.count > 1 { throw .badRequest("more than one Host header") }
        let encodings = headers.values(for: "Transfer-Encoding")
        let lengths = headers.values(for: "Content-Length")
        if !encodings.isEmpty {
            if version == .http10 { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            if !lengths.isEmpty { throw .badRequest("both Content-Length and Transfer-Encoding") }
            let codings = headers.tokens(for: "Transfer-Encoding")
            guard codings.last == "chunked" else {
                throw .badRequest("Transfer-Encoding must end with chunked")
            }
            guard codings.count == 1 else { throw .notImplemented("transfer codings other than chunked") }
            return .chunked
        }
        var length: Int?
        for value in lengths {
            guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy(ByteClass.isDigit), let parsed = Int(value) else {
                throw .badRequest("Content-Length is not a decimal number: \"\(value)\"")
            }
            if let length, length != parsed { throw .badRequest("conflicting Content-Length values") }
            length = parsed
        }
        guard let length else { return .none }
        if length > limits.body { throw .bodyTooLarge("body of \(length) bytes over the \(limits.body)-byte limit") }
        return .length(length)
    }

    private func expectation(_ headers: HTTPHeaders, version: HTTPVersion) throws(HTTPError) -> Bool {
        let expect = headers.tokens(for: "Expect")
        if expect.isEmpty { return false }
        guard expect == ["100-continue"] else { throw .expectationFailed("only Expect: 100-continue is supported") }
        return version == .http11
    }

    /// Refuses a request with more than one `Authorization` field: which credentials count
    /// would depend on who reads the head (RFC 9110 §11.6.2 allows one), so neither serve nor
    /// record picks one.
    private func singleAuthorization(_ headers: HTTPHeaders) throws(HTTPError) {
        if headers.values(for: "Authorization").count > 1 { throw .badRequest("more than one Authorization header") }
    }
}
