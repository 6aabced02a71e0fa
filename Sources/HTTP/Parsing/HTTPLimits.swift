/// Size limits the request parser enforces.
public struct HTTPLimits: Sendable, Hashable {
    /// The longest request line, without its CRLF (over it: 414).
    public var requestLine: Int
    /// The largest header block, header lines and their CRLFs (over it: 431).
    public var headerBlock: Int
    /// The most header fields (over it: 431).
    public var headerCount: Int
    /// The largest decoded body (over it: 413).
    public var body: Int
    /// The longest chunk-size line, extensions included (over it: 400).
    public var chunkLine: Int

    /// Makes limits; the defaults are 8 KiB, 16 KiB, 100 fields, 1 MiB and 4 KiB.
    /// - Parameters:
    ///   - requestLine: the longest request line.
    ///   - headerBlock: the largest header block.
    ///   - headerCount: the most header fields.
    ///   - body: the largest body.
    ///   - chunkLine: the longest chunk-size line.
    public init(
        requestLine: Int = 8 * 1024, headerBlock: Int = 16 * 1024, headerCount: Int = 100, body: Int = 1024 * 1024,
        chunkLine: Int = 4 * 1024
    ) {
        self.requestLine = requestLine
        self.headerBlock = headerBlock
        self.headerCount = headerCount
        self.body = body
        self.chunkLine = chunkLine
    }
}
