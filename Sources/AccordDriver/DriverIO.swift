import Foundation

/// A source of bytes the driver loop reads request lines from.
public protocol DriverInput {
    /// Reads the next chunk of bytes.
    /// - Returns: the bytes (never empty), or nil at end of input.
    /// - Throws: any read error; the loop treats it as end of input.
    mutating func read() async throws -> [UInt8]?
}

/// A sink the driver loop writes response lines to.
public protocol DriverOutput {
    /// Writes one whole line, newline included.
    /// - Parameter bytes: the line.
    /// - Throws: any write error; the loop stops on it.
    func write(_ bytes: [UInt8]) async throws
}

/// Splits a byte source into lines (LF, with an optional CR before it), bounding line length.
public struct DriverLineReader<Input: DriverInput> {
    /// One line read.
    public enum Line: Sendable, Hashable {
        /// A line's bytes, without its line end.
        case line([UInt8])
        /// A line longer than the limit; its bytes were skipped up to the next newline.
        case tooLong(Int)
    }

    private var input: Input
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var ended = false
    private let maximumLength: Int

    /// Starts reading lines.
    /// - Parameters:
    ///   - input: the byte source.
    ///   - maximumLength: the longest line accepted, in bytes.
    public init(_ input: Input, maximumLength: Int = 16 << 20) {
        self.input = input
        self.maximumLength = maximumLength
    }

    /// Reads the next line; a last line without a newline still counts.
    /// - Returns: the line, or nil at end of input.
    public mutating func next() async -> Line? {
        var skipped = 0
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                scanned = start
                compact()
                if skipped > 0 { return .tooLong(skipped + line.count) }
                if line.count > maximumLength { return .tooLong(line.count) }
                return .line(line)
            }
            scanned = buffer.count
            if buffer.count - start > maximumLength {
                skipped += buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            if ended {
                if start == buffer.count {
                    if skipped > 0 {
                        return .tooLong(skipped)
                    }
                    return nil
                }
                var line = Array(buffer[start...])
                if line.last == 0x0D { line.removeLast() }
                buffer.removeAll()
                start = 0
                scanned = 0
                if skipped > 0 || line.count > maximumLength { return .tooLong(skipped + line.count) }
                return .line(line)
            }
            do {
                if let chunk = try await input.read(), !chunk.isEmpty {
                    buffer.append(contentsOf: chunk)
                } else {
                    ended = true
                }
            } catch {
                ended = true
            }
        }
    }

    private mutating func compact() {
        if start > 64 * 1024 || start == buffer.count {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
    }
}

/// An in-memory, one-way byte pipe for tests and in-process drivers: write on one side, read
/// on the other, `finish()` for end of input.
public final class DriverPipe: DriverOutput, Sendable {
    private let stream: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation

    /// Makes an empty pipe.
    public init() {
        (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
    }

    /// Appends bytes to the pipe.
    /// - Throws: never; the signature is `DriverOutput`'s.
    public func write(_ bytes: [UInt8]) async throws { continuation.yield(bytes) }

    /// Appends bytes without waiting.
    public func send(_ bytes: [UInt8]) { continuation.yield(bytes) }

    /// Ends the pipe: the reader sees end of input after the bytes already sent.
    public func finish() { continuation.finish() }

    /// The reading side; make it once.
    /// - Returns: a byte source over the pipe.
    public func reader() -> Reader { Reader(iterator: stream.makeAsyncIterator()) }

    /// The reading side of a `DriverPipe`.
    public struct Reader: DriverInput {
        var iterator: AsyncStream<[UInt8]>.AsyncIterator

        /// Reads the next chunk sent into the pipe.
        /// - Returns: the bytes, or nil once the pipe is finished and drained.
        public mutating func read() async throws -> [UInt8]? {
            while let chunk = await iterator.next() {
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }
}

/// A file descriptor as a byte source (standard input by default); reads block a dispatch
/// thread, not the cooperative pool.
public struct FileDescriptorInput: DriverInput, Sendable {
    /// The descriptor.
    public let descriptor: Int32

    /// Reads from a descriptor.
    /// - Parameter descriptor: the descriptor; 0 is standard input.
    public init(descriptor: Int32 = 0) { self.descriptor = descriptor }

    /// Reads up to 64 KiB.
    /// - Returns: the bytes, or nil at end of file.
    /// - Throws: `POSIXError` when the read fails.
    public mutating func read() async throws -> [UInt8]? {
        let fd = descriptor
        let result: Result<[UInt8]?, POSIXError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        continuation.resume(returning: .success(Array(bytes[0..<count])))
                    } else if count == 0 {
                        continuation.resume(returning: .success(nil))
                    } else if errno == EINTR {
                        continue
                    } else {
                        continuation.resume(returning: .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)))
                    }
                    return
                }
            }
        }
        return try result.get()
    }
}

/// A file descriptor as a line sink (standard output by default).
public struct FileDescriptorOutput: DriverOutput, Sendable {
    /// The descriptor.
    public let descriptor: Int32

    /// Writes to a descriptor.
    /// - Parameter descriptor: the descriptor; 1 is standard output.
    public init(descriptor: Int32 = 1) { self.descriptor = descriptor }

    /// Writes every byte, retrying short writes.
    /// - Parameter bytes: the line.
    /// - Throws: `POSIXError` when the write fails (e.g. EPIPE).
    public func write(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += count
        }
    }
}
