import CLinux
import Foundation

/// How a line is laid out for `writev(2)` and written whole.
extension RecordingWriter {
    /// Calls `body` with a vector for each non-empty array's bytes (the first array's after
    /// its `{`, which the prefix replaces) stored from `vectors[filled]` on, valid for the call.
    /// - Returns: what `body` returns; it is given the index after the last vector stored.
    static func withVectors<Result>(
        of arrays: [[UInt8]], into vectors: UnsafeMutableBufferPointer<iovec>, from index: Int, filled: Int,
        _ body: (Int) -> Result
    ) -> Result {
        guard index < arrays.count else { return body(filled) }
        return arrays[index].withUnsafeBytes { bytes in
            let bytes = index == 0 ? UnsafeRawBufferPointer(rebasing: bytes.dropFirst()) : bytes
            var filled = filled
            if let base = bytes.baseAddress, !bytes.isEmpty {
                vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: bytes.count)
                filled += 1
            }
            return withVectors(of: arrays, into: vectors, from: index + 1, filled: filled, body)
        }
    }

    static let newline: StaticString = "\n"
    /// Bytes enough for `{"exchange":N,` with any `Int`.
    public static var prefixCapacity: Int { 40 }

    /// Prints `{"exchange":N,` into `buffer` (`prefixCapacity` bytes are enough for any `Int`).
    /// - Returns: the number of bytes printed.
    static func printPrefix(_ number: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count = 0
        for byte in #"{"exchange":"#.utf8 {
            buffer[count] = byte
            count += 1
        }
        var magnitude = number.magnitude
        if number < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
        }
        // Digits from the last, then reversed in place.
        let first = count
        repeat {
            buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            count += 1
        } while magnitude > 0
        var low = first
        var high = count - 1
        while low < high {
            buffer.swapAt(low, high)
            low += 1
            high -= 1
        }
        buffer[count] = UInt8(ascii: ",")
        return count + 1
    }

    /// Writes every byte the vectors point at, in order; the error text on failure.
    static func writeAll(_ fd: Int32, _ vectors: UnsafeMutableBufferPointer<iovec>) -> String? {
        var first = 0
        while first < vectors.count {
            let count = writev(fd, vectors.baseAddress.map { $0 + first }, Int32(vectors.count - first))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? "write returned 0" : String(cString: strerror(errno)) }
            first = Int(accord_iov_consume(vectors.baseAddress, Int32(vectors.count), Int32(first), count))
        }
        return nil
    }
}
