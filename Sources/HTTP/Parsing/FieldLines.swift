/// Header (or trailer) field lines up to the empty line that ends them, read as they arrive:
/// each call looks only at the bytes it has not looked at before, so a block fed one byte at a
/// time costs one pass. Offsets count from the request's first byte (the front of the buffer
/// the parser is given), not from the buffer's indices.
struct FieldLines: Sendable, Hashable {
    /// Where the block starts.
    let start: Int
    /// Where the line being read starts.
    private var lineStart: Int
    /// How far the search for the current line's LF has got.
    private var scanned: Int
    /// The fields of the lines read so far.
    private(set) var fields: [HTTPHeaders.Field] = []

    /// A block starting at offset `start`.
    init(start: Int) {
        self.start = start
        lineStart = start
        scanned = start
    }

    /// Reads the lines that have arrived.
    /// - Parameters:
    ///   - bytes: the request's bytes so far, from its first byte.
    ///   - limits: the header block and field count limits.
    ///   - examined: counts the bytes looked at.
    /// - Returns: the offset after the empty line, or nil while the block is incomplete.
    mutating func read(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits, examined: inout Int) throws(HTTPError) -> Int? {
        let base = bytes.startIndex
        let available = bytes.count
        let blockEnd = min(available, start + limits.headerBlock)
        while true {
            let from = max(lineStart, scanned)
            guard from < blockEnd, let found = bytes[(base + from)..<(base + blockEnd)].firstIndex(of: ByteClass.lf) else {
                examined += max(0, blockEnd - from)
                scanned = max(scanned, blockEnd)
                if available - start >= limits.headerBlock { throw .headersTooLarge("header block over \(limits.headerBlock) bytes") }
                return nil
            }
            let lineFeed = found - base
            examined += lineFeed + 1 - from
            guard lineFeed > lineStart, bytes[found - 1] == ByteClass.cr else { throw .badRequest("header line not ended by CRLF") }
            if lineFeed - 1 == lineStart { return lineFeed + 1 }
            examined += lineFeed - lineStart
            fields.append(try Self.field(bytes[(base + lineStart)..<(found - 1)]))
            if fields.count > limits.headerCount { throw .headersTooLarge("more than \(limits.headerCount) header fields") }
            lineStart = lineFeed + 1
            scanned = lineStart
        }
    }

    /// One `name: value` line without its CRLF.
    static func field(_ line: ArraySlice<UInt8>) throws(HTTPError) -> HTTPHeaders.Field {
        guard let first = line.first, !ByteClass.isWhitespace(first) else { throw .badRequest("obsolete line folding") }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .badRequest("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(ByteClass.isTokenChar) else { throw .badRequest("header name is not a token") }
        var value = line[(colon + 1)...]
        while let byte = value.first, ByteClass.isWhitespace(byte) { value = value.dropFirst() }
        while let byte = value.last, ByteClass.isWhitespace(byte) { value = value.dropLast() }
        guard value.allSatisfy(ByteClass.isFieldValueChar) else { throw .badRequest("header value has a control byte") }
        return HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), received: value)
    }
}
