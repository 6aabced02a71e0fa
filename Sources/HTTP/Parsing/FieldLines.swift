/// Header (or trailer) field lines up to the empty line that ends them.
enum FieldLines {
    /// Reads field lines from `start` through the empty line.
    /// - Returns: the fields and the index after the empty line, or nil when incomplete.
    static func read(_ bytes: ArraySlice<UInt8>, from start: Int, limits: HTTPLimits) throws(HTTPError) -> ([HTTPHeaders.Field], Int)? {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(8)
        var cursor = start
        let blockEnd = min(bytes.endIndex, start + limits.headerBlock)
        while true {
            guard cursor < blockEnd, let lineFeed = bytes[cursor..<blockEnd].firstIndex(of: ByteClass.lf) else {
                if bytes.endIndex - start >= limits.headerBlock {
                    throw .headersTooLarge("header block over \(limits.headerBlock) bytes")
                }
                return nil
            }
            guard lineFeed > cursor, bytes[lineFeed - 1] == ByteClass.cr else { throw .badRequest("header line not ended by CRLF") }
            if lineFeed - 1 == cursor { return (fields, lineFeed + 1) }
            fields.append(try field(bytes[cursor..<(lineFeed - 1)]))
            if fields.count > limits.headerCount { throw .headersTooLarge("more than \(limits.headerCount) header fields") }
            cursor = lineFeed + 1
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
        return HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }
}
