/// The chunked transfer coding (RFC 9112 §7.1): size lines in hex with optional extensions,
/// data followed by CRLF, a zero-size last chunk, optional trailer fields, an empty line.
///
/// A decoding in progress: where it is in the coding, the offset of the next byte to decode and
/// the data decoded so far. Each `decode` goes on from there, so a body that arrives in many
/// reads is decoded in one pass over its bytes. Offsets count from the request's first byte.
struct ChunkedBody: Sendable, Hashable {
    /// Where the decoding is in the coding.
    enum Phase: Sendable, Hashable {
        /// At a chunk-size line; its first `scanned` bytes hold no LF.
        case sizeLine(scanned: Int)
        /// In a chunk's data, `remaining` bytes of it still to come.
        case data(remaining: Int)
        /// After a chunk's data, at the CRLF that must follow it.
        case dataEnd
        /// After the last chunk, in the trailer fields.
        case trailers(FieldLines)
    }

    /// What a `decode` came to.
    enum Step: Sendable, Hashable {
        /// The body is not all there yet.
        case needsMore
        /// The body is complete; the request ends at this offset.
        case complete(end: Int)
    }

    private(set) var phase = Phase.sizeLine(scanned: 0)
    /// The offset of the next byte to decode: the start of the current line, or of the data not
    /// yet taken.
    private(set) var position: Int
    /// The data decoded so far.
    private(set) var body: [UInt8] = []

    /// A body whose first chunk starts at offset `start`.
    init(start: Int) { position = start }

    /// Decodes what has arrived since the last call.
    /// - Parameters:
    ///   - bytes: the request's bytes so far, from its first byte.
    ///   - limits: the body, chunk-size line and trailer limits.
    ///   - examined: counts the bytes looked at.
    /// - Returns: whether the body is complete, and where the request ends.
    mutating func decode(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits, examined: inout Int) throws(HTTPError) -> Step {
        let base = bytes.startIndex
        let available = bytes.count
        while true {
            switch phase {
            case .sizeLine(let scanned):
                let lineEnd = min(available, position + limits.chunkLine + 2)
                let from = position + scanned
                guard from < lineEnd, let found = bytes[(base + from)..<(base + lineEnd)].firstIndex(of: ByteClass.lf) else {
                    examined += max(0, lineEnd - from)
                    if available - position > limits.chunkLine + 1 { throw .badRequest("chunk-size line too long") }
                    if position < available, ByteClass.hexValue(bytes[base + position]) == nil {
                        throw .badRequest("chunk size is not hex")
                    }
                    phase = .sizeLine(scanned: max(scanned, lineEnd - position))
                    return .needsMore
                }
                let lineFeed = found - base
                examined += (lineFeed + 1 - from) + (lineFeed - position)
                guard lineFeed > position, bytes[found - 1] == ByteClass.cr else {
                    throw .badRequest("chunk-size line not ended by CRLF")
                }
                let size = try Self.chunkSize(bytes[(base + position)..<(found - 1)], already: body.count, limit: limits.body)
                position = lineFeed + 1
                phase = size == 0 ? .trailers(FieldLines(start: position)) : .data(remaining: size)
            case .data(let remaining):
                let taken = min(remaining, available - position)
                guard taken > 0 else { return .needsMore }
                body.append(contentsOf: bytes[(base + position)..<(base + position + taken)])
                examined += taken
                position += taken
                phase = taken == remaining ? .dataEnd : .data(remaining: remaining - taken)
            case .dataEnd:
                guard position < available else { return .needsMore }
                examined += min(2, available - position)
                guard bytes[base + position] == ByteClass.cr else { throw .badRequest("chunk data not followed by CRLF") }
                guard position + 1 < available else { return .needsMore }
                guard bytes[base + position + 1] == ByteClass.lf else { throw .badRequest("chunk data not followed by CRLF") }
                position += 2
                phase = .sizeLine(scanned: 0)
            case .trailers(var trailers):
                // Out of `phase` while it reads, so its field array is not copied on write.
                phase = .dataEnd
                let end = try trailers.read(bytes, limits: limits, examined: &examined)
                phase = .trailers(trailers)
                guard let end else { return .needsMore }
                return .complete(end: end)
            }
        }
    }

    /// Takes the decoded data out (once the body is complete), leaving none behind.
    mutating func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
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
