/// How far `HTTPRequestParser` has got into the request at the front of a connection's
/// buffer, kept by the caller between reads so that each parse goes on where the last one
/// stopped instead of starting again from the request's first byte. A fresh value stands
/// before a request; the parser resets it once a request is complete or refused.
public struct HTTPParseProgress: Sendable, Hashable {
    /// Where the parse is, with what it has read so far.
    enum State: Sendable, Hashable {
        /// In the request line, which starts at `lineStart` (after any empty lines before it);
        /// its first `scanned` bytes hold no LF.
        case requestLine(lineStart: Int, scanned: Int)
        /// The request line is read; its header fields are being read.
        case headerFields(RequestLineParts, FieldLines)
        /// The head is read; `length` body bytes follow it at `bodyStart`.
        case fixedBody(RequestHead, bodyStart: Int, length: Int)
        /// The head is read; its chunked body is being decoded.
        case chunkedBody(RequestHead, ChunkedBody)
        /// Between two steps of a transition (never seen outside one), so that the value a
        /// step works on is not shared with `state` and copied when it grows.
        case moving
    }

    /// The request line's three parts.
    struct RequestLineParts: Sendable, Hashable {
        let method: String
        let target: String
        let version: HTTPVersion
    }

    /// What a parsed head says about the request and how its body is framed.
    struct RequestHead: Sendable, Hashable {
        let line: RequestLineParts
        let headers: HTTPHeaders
        let expectsContinue: Bool
    }

    var state = State.requestLine(lineStart: 0, scanned: 0)

    /// The bytes the parser has looked at through this value, over every request it parsed: a
    /// measure of its work, which grows with the bytes received, not with the number of reads.
    public internal(set) var bytesExamined = 0

    /// Progress before a request.
    public init() {}

    /// The decoded body bytes held here (a chunked body being decoded): memory the connection
    /// holds for the request besides its buffer.
    public var heldBodyBytes: Int {
        if case .chunkedBody(_, let chunked) = state { return chunked.body.count }
        return 0
    }

    /// The request's whole length once its head is parsed and declares it (Content-Length):
    /// the head and the body. The connection can make room for it at once rather than grow its
    /// buffer by doubling as the body arrives (each doubling a copy, the old block left behind).
    public var expectedLength: Int? {
        if case .fixedBody(_, let bodyStart, let length) = state { return bodyStart + length }
        return nil
    }

    /// Back to the start, for the next request; the work count goes on.
    mutating func reset() { state = .requestLine(lineStart: 0, scanned: 0) }
}
