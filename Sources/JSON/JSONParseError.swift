/// Where and why a JSON document failed to parse.
public struct JSONParseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong, e.g. "expected ',' or '}' in an object".
    public let reason: String
    /// The zero-based byte offset of the problem.
    public let offset: Int
    /// The one-based line of the problem.
    public let line: Int
    /// The one-based column (in bytes) of the problem.
    public let column: Int

    /// Makes an error, computing line and column from the offset.
    /// - Parameters:
    ///   - reason: what is wrong.
    ///   - offset: the byte offset.
    ///   - buffer: the document, to count lines in.
    init(reason: String, offset: Int, in buffer: UnsafeBufferPointer<UInt8>) {
        self.reason = reason
        self.offset = offset
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, buffer.count) where buffer[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        self.line = line
        self.column = offset - lineStart + 1
    }

    /// Makes an error at a known line and column.
    /// - Parameters:
    ///   - reason: what is wrong.
    ///   - offset: the byte offset.
    ///   - line: the one-based line.
    ///   - column: the one-based column.
    public init(reason: String, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// "line L, column C: reason".
    public var description: String { "line \(line), column \(column): \(reason)" }
}
