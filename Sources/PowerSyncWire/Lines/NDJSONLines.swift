/// An NDJSON body split into its lines, as the sync stream's answer is read: a line ends at LF,
/// a CR just before the LF is not part of it (CRLF), and a blank line is no line (it carries no
/// value). Where the body ends decides its last bytes: a body that ended cleanly makes them its
/// last line even without a final LF; a body cut mid-line (a dropped connection, a prefix kept
/// at a size limit) keeps only its whole lines and says how many bytes of the next it dropped.
public struct NDJSONLines: Sendable, Hashable {
    /// The whole lines, in order, without their LF or CRLF, as offsets from the start of the
    /// bytes split (not the collection's own indices, for a slice).
    public var lines: [Range<Int>]
    /// The cut line, when the body was cut after some bytes of a line it never finished.
    public var cut: Cut?

    /// A line the body was cut in.
    public struct Cut: Sendable, Hashable {
        /// The bytes of the unfinished line that were dropped.
        public var droppedBytes: Int
        /// Its 1-based NDJSON line number: one past the whole lines kept.
        public var line: Int

        /// Makes a cut.
        /// - Parameters:
        ///   - droppedBytes: the bytes dropped.
        ///   - line: the cut line's number.
        public init(droppedBytes: Int, line: Int) {
            self.droppedBytes = droppedBytes
            self.line = line
        }
    }

    /// Splits a body.
    /// - Parameters:
    ///   - bytes: the body, or the prefix of it that arrived.
    ///   - ended: true when the body ended where `bytes` ends (its framing said so), false when
    ///     it was cut there.
    public init(_ bytes: some RandomAccessCollection<UInt8>, ended: Bool) {
        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        var lines: [Range<Int>] = []
        var start = 0
        var offset = 0
        for byte in bytes {
            if byte == lf {
                Self.append(start..<offset, of: bytes, cr: cr, to: &lines)
                start = offset + 1
            }
            offset += 1
        }
        cut = nil
        if start < offset {
            if ended {
                Self.append(start..<offset, of: bytes, cr: cr, to: &lines)
            } else {
                cut = Cut(droppedBytes: offset - start, line: lines.count + 1)
            }
        }
        self.lines = lines
    }

    /// Appends a line's range without its trailing CR, unless it is blank.
    private static func append(_ range: Range<Int>, of bytes: some RandomAccessCollection<UInt8>, cr: UInt8, to lines: inout [Range<Int>]) {
        var end = range.upperBound
        if end > range.lowerBound, bytes[bytes.index(bytes.startIndex, offsetBy: end - 1)] == cr { end -= 1 }
        let line = range.lowerBound..<end
        let blank = line.allSatisfy { index in
            let byte = bytes[bytes.index(bytes.startIndex, offsetBy: index)]
            return byte == 0x20 || byte == 0x09 || byte == 0x0D
        }
        if !blank { lines.append(line) }
    }
}
