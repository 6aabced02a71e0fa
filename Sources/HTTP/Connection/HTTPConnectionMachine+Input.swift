/// The bytes a connection holds: how drivers read into them and what they may know of them
/// (to choose deadlines, to watch a socket, to charge a budget).
extension HTTPConnectionMachine {
    /// Reads into the connection's buffer, in place: `read` appends what it receives to the
    /// bytes given (whose capacity is the room there is without growing).
    /// - Parameter read: the read, e.g. a socket receive into the buffer.
    /// - Returns: what `read` returned.
    public mutating func receive<Result>(_ read: (inout [UInt8]) -> Result) -> Result {
        switch phase {
        case .reading(var input, let progress, let continueSent):
            phase = .moving
            defer { phase = .reading(input, progress, continueSent: continueSent) }
            return read(&input.bytes)
        case .answering(var input, let progress):
            phase = .moving
            defer { phase = .answering(input, progress) }
            return read(&input.bytes)
        case .ending, .moving:
            // Nothing more is parsed: what arrives is read and let go.
            var dropped: [UInt8] = []
            return read(&dropped)
        }
    }

    /// Whether part of a request has arrived and waits for the rest (or, while a request is
    /// answered, whether pipelined bytes wait behind it).
    @inlinable
    public var isPartial: Bool { unread > 0 }

    /// Whether a request is being answered (handed out by `next()`, not yet `answered`).
    @inlinable
    public var isAnswering: Bool {
        if case .answering = phase { return true }
        return false
    }

    /// The bytes received and not yet taken by a request.
    @inlinable
    public var unread: Int {
        switch phase {
        case .reading(let input, _, _), .answering(let input, _): input.bytes.count - input.start
        case .ending, .moving: 0
        }
    }

    /// The buffer's count and capacity: the room a read has without growing it, and the memory
    /// it holds once large.
    @inlinable
    public var buffer: (count: Int, capacity: Int) {
        switch phase {
        case .reading(let input, _, _), .answering(let input, _): (input.bytes.count, input.bytes.capacity)
        case .ending, .moving: (0, 0)
        }
    }

    /// The request's whole length once its head declared it (Content-Length), else nil.
    @inlinable
    public var expectedLength: Int? {
        if case .reading(_, let progress, _) = phase { return progress.expectedLength }
        return nil
    }

    /// The decoded body bytes of a chunked request being read, held besides the buffer.
    @inlinable
    public var heldBodyBytes: Int {
        if case .reading(_, let progress, _) = phase { return progress.heldBodyBytes }
        return 0
    }
}

extension HTTPConnectionMachine.Input {
    /// Lets go of the bytes requests took: an emptied buffer keeps its capacity for the next
    /// request unless it grew past 1 MiB; a long consumed prefix is moved out, and the pages of
    /// a large request go once what is left (pipelined requests) is a fraction of them.
    mutating func compact() {
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            start = 0
        } else if start > 64 * 1024 {
            bytes.removeFirst(start)
            start = 0
            if bytes.capacity > 1 << 20 && bytes.count < bytes.capacity / 4 {
                var smaller: [UInt8] = []
                smaller.reserveCapacity(bytes.count)
                smaller.append(contentsOf: bytes)
                bytes = smaller
            }
        }
    }
}
