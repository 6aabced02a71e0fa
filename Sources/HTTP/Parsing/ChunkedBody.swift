/// The chunked transfer coding (RFC 9112 §7.1): size lines in hex with optional extensions,
/// data followed by CRLF, a zero-size last chunk, optional trailer fields, an empty line.
enum ChunkedBody {
    /// Decodes a chunked body starting at `start`.
    /// - Returns: the body and the index after it, or nil when incomplete.
    static func decode(_ bytes: ArraySlice<UInt8>, from start: Int, limits: HTTPLimits) throws(HTTPError) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var cursor = start
        while true {
            let lineEnd = min(bytes.endIndex, cursor + limits.chunkLine + 2)
            guard cursor < lineEnd, let lineFeed = bytes[cursor..<lineEnd].firstIndex(of: ByteClass.lf) else {
                if bytes.endIndex - cursor > limits.chunkLine + 1 { throw .badRequest("chunk-size line too long") }
                if let first = bytes[cursor...].first, ByteClass.hexValue(first) == nil { throw .badRequest("chunk size is not hex") }
                return nil
            }
            guard lineFeed > cursor, bytes[lineFeed - 1] == ByteClass.cr else { throw .badRequest("chunk-size line not ended by CRLF") }
            let size = try chunkSize(bytes[cursor..<(lineFeed - 1)], already: body.count, limit: limits.body)
            cursor = lineFeed + 1
            if size == 0 {
                guard let (_, end) = try FieldLines.read(bytes, from: cursor, limits: limits) else { return nil }
                return (body, end)
            }
            guard bytes.endIndex - cursor >= size + 2 else {
                if bytes.endIndex - cursor > size, bytes[cursor + size] != ByteClass.cr {
                    throw .badRequest("chunk data not followed by CRLF")
                }
                return nil
            }
            guard bytes[cursor + size] == ByteClass.cr, bytes[cursor + size + 1] == ByteClass.lf else {
                throw .badRequest("chunk data not followed by CRLF")
            }
            body.append(contentsOf: bytes[cursor..<(cursor + size)])
            cursor += size + 2
        }
    }

    /// `1*HEXDIG [ BWS ";" extensions ]`; a size taking the body over `limit` is refused early.
    private static func chunkSize(_ line: ArraySlice<UInt8>, already: Int, limit: Int) throws(HTTPError) -> Int {
        var size = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = ByteClass.hexValue(line[index]) {
            size = size * 16 + digit
            if already + size > limit { throw .bodyTooLarge("chunked body over the \(limit)-byte limit") }
            index += 1
        }
        guard index > line.startIndex else { throw .badRequest("chunk size is not hex") }
        var rest = line[index...]
        while let byte = rest.first, ByteClass.isWhitespace(byte) { rest = rest.dropFirst() }
        if rest.isEmpty { return size }
        guard rest.first == UInt8(ascii: ";"), rest.allSatisfy(ByteClass.isFieldValueChar) else {
            throw .badRequest("malformed chunk extension")
        }
        return size
    }
}
