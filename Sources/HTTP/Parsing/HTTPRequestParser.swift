/// Parses one HTTP/1.0 or HTTP/1.1 request from the front of a byte buffer, strictly: CRLF line
/// ends only, no obsolete line folding, exactly one Host on HTTP/1.1, no Content-Length next to
/// Transfer-Encoding, and the limits of `HTTPLimits`. It holds no state between calls: the
/// caller parses again when more bytes arrive, and parses the remainder after a complete
/// request (pipelining).
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

    /// Parses the request at the front of `bytes`.
    /// - Parameter bytes: the bytes received and not yet consumed.
    /// - Returns: incomplete, a complete request with its length, or the refusal.
    public func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        do throws(HTTPError) {
            return try parseOrThrow(bytes)
        } catch {
            return .failed(error)
        }
    }

    private func parseOrThrow(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> Outcome {
        var position = bytes.startIndex
        // A server ignores empty lines before a request line (RFC 9112 §2.2).
        while position + 1 < bytes.endIndex, bytes[position] == ByteClass.cr, bytes[position + 1] == ByteClass.lf {
            position += 2
            if position - bytes.startIndex > limits.requestLine { throw .badRequest("too many empty lines before the request") }
        }
        let lineLimit = min(bytes.endIndex, position + limits.requestLine + 2)
        guard let lineEnd = bytes[position..<lineLimit].firstIndex(of: ByteClass.lf) else {
            if bytes.endIndex - position > limits.requestLine + 1 {
                throw .uriTooLong("request line over \(limits.requestLine) bytes")
            }
            return .incomplete(expectsContinue: false)
        }
        guard lineEnd > position, bytes[lineEnd - 1] == ByteClass.cr else { throw .badRequest("request line not ended by CRLF") }
        if lineEnd - 1 - position > limits.requestLine { throw .uriTooLong("request line over \(limits.requestLine) bytes") }
        let (method, target, version) = try RequestLine.parse(bytes[position..<(lineEnd - 1)])

        guard let (fields, headEnd) = try FieldLines.read(bytes, from: lineEnd + 1, limits: limits) else {
            return .incomplete(expectsContinue: false)
        }
        let headers = HTTPHeaders(fields)
        let framing = try bodyFraming(headers, version: version)
        let expectsContinue = try expectation(headers, version: version)
        try singleAuthorization(headers)

        let body: [UInt8]
        let end: Int
        switch framing {
        case .none:
            body = []
            end = headEnd
        case .length(let length):
            guard bytes.endIndex - headEnd >= length else { return .incomplete(expectsContinue: expectsContinue) }
            body = Array(bytes[headEnd..<(headEnd + length)])
            end = headEnd + length
        case .chunked:
            guard let decoded = try ChunkedBody.decode(bytes, from: headEnd, limits: limits) else {
                return .incomplete(expectsContinue: expectsContinue)
            }
            (body, end) = decoded
        }
        let request = HTTPRequest(method: method, target: target, version: version, headers: headers, body: body)
        return .complete(request, consumed: end - bytes.startIndex)
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
