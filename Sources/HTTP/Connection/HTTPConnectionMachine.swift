/// One HTTP/1 connection's server side, without I/O: the bytes a driver reads go in
/// (`receive`), and `next()` says what to do with them: answer a whole request, invite its body
/// with `100 Continue`, refuse it, or read more. The machine holds the bytes received and not
/// yet taken by a request, so that pipelined requests wait their turn behind the one being
/// answered, and the parse progress of the request arriving, so that each read costs only its
/// new bytes. It keeps the keep-alive decision (`answered(keepAlive:)`) and the framing limit.
///
/// The threaded server (`Connection`, blocking sockets) and the recorder's event loop
/// (`ProxyConnection`, non-blocking sockets and a buffer budget) drive the same machine; what
/// differs between them (how bytes are read and sent, deadlines, the budget) stays with them.
public struct HTTPConnectionMachine: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Hashable {
        /// A whole request: answer it, then call `answered(keepAlive:)`.
        case request(HTTPRequest)
        /// The request arriving asked for `100 Continue`: send `continueLine`, then call
        /// `next()` again.
        case sendContinue
        /// A request the connection refuses: answer `error.status` and close. Nothing more is parsed.
        case refuse(HTTPError)
        /// Nothing to do until more bytes arrive (or, while a request is answered, until it is).
        case readMore
        /// The last answer closed the connection (or a refusal was handed out): close it.
        case close
    }

    /// The bytes received and not yet taken by a request: `bytes[start...]`.
    @usableFromInline
    struct Input: Sendable {
        @usableFromInline var bytes: [UInt8] = []
        @usableFromInline var start = 0
    }

    @usableFromInline
    enum Phase: Sendable {
        /// Reading a request: none of it, or part of it (its parse stopped at `progress`);
        /// `continueSent` once its `100 Continue` was handed out.
        case reading(Input, HTTPParseProgress, continueSent: Bool)
        /// A request was handed out and is being answered; the bytes after it wait.
        case answering(Input, HTTPParseProgress)
        /// A refusal was handed out, or the last answer closes the connection.
        case ending
        /// Between two steps of a transition (never seen outside one), so that the buffer a
        /// step works on is not shared with `phase` and copied when it grows.
        case moving
    }

    /// The interim answer that invites a request's body.
    public static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    // Read by the inlinable accessors (HTTPConnectionMachine+Input.swift), so that a driver
    // holding the machine in a class reads a count without copying the machine out first.
    @usableFromInline var phase = Phase.reading(Input(), HTTPParseProgress(), continueSent: false)
    private let parser: HTTPRequestParser
    private let listener: HTTPEndpoint
    private let peer: HTTPEndpoint

    /// The most request bytes buffered ahead of the parser before the request is refused (413).
    public let maximumBuffered: Int

    /// A connection before its first request.
    /// - Parameters:
    ///   - limits: the request limits.
    ///   - listener: the address the connection was accepted on, stamped on each request.
    ///   - peer: the client's address, stamped on each request.
    public init(limits: HTTPLimits, listener: HTTPEndpoint, peer: HTTPEndpoint) {
        parser = HTTPRequestParser(limits: limits)
        self.listener = listener
        self.peer = peer
        maximumBuffered = limits.body * 8 + limits.headerBlock + limits.requestLine + 64 * 1024
    }

    /// What to do with the bytes received so far.
    /// - Returns: the action; after `.request`, the machine waits for `answered(keepAlive:)`.
    public mutating func next() -> Action {
        guard case .reading(var input, var progress, let continueSent) = phase else {
            if case .ending = phase { return .close }
            return .readMore
        }
        guard input.start < input.bytes.count else { return .readMore }
        phase = .moving
        switch parser.parse(input.bytes[input.start...], resuming: &progress) {
        case .complete(var request, let consumed):
            input.start += consumed
            input.compact()
            request.listener = listener
            request.peer = peer
            phase = .answering(input, progress)
            return .request(request)
        case .failed(let error):
            phase = .ending
            return .refuse(error)
        case .incomplete(let expectsContinue):
            // The body's length is known: room for it at once, not by doubling (each doubling a
            // copy, the old block left behind).
            if let length = progress.expectedLength, length <= maximumBuffered, input.bytes.capacity < input.start + length {
                input.bytes.reserveCapacity(input.start + length)
            }
            if expectsContinue && !continueSent {
                phase = .reading(input, progress, continueSent: true)
                return .sendContinue
            }
            if input.bytes.count - input.start > maximumBuffered {
                phase = .ending
                return .refuse(.bodyTooLarge("request framing over \(maximumBuffered) bytes"))
            }
            phase = .reading(input, progress, continueSent: continueSent)
            return .readMore
        }
    }

    /// The request handed out is answered: the connection reads the next one (pipelined bytes
    /// first), or ends when `keepAlive` is false.
    /// - Parameter keepAlive: whether the connection stays open.
    public mutating func answered(keepAlive: Bool) {
        guard case .answering(let input, let progress) = phase else { return }
        phase = keepAlive ? .reading(input, progress, continueSent: false) : .ending
    }

    /// Ends the connection from the driver's side (a refusal of its own, such as the proxy's
    /// budget, or a timeout): the bytes held are let go and nothing more is parsed.
    public mutating func end() { phase = .ending }
}
