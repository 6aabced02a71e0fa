import JSON
import KizunaWire

/// Splits a recording's bytes into lines as they arrive and decodes each one, so that a
/// recording of any size is read in bounded memory: no more than `maxLine` bytes of one line are
/// ever held, and a longer line is an error naming its number. A last line without its newline
/// that does not parse is a torn tail: reported, not fatal.
public struct RecordingReader {
    /// What the reader produced for one line.
    public enum Item: Sendable {
        /// The header line.
        case header(RecordingHeader)
        /// One exchange.
        case exchange(RecordedExchange)
    }

    /// The default cap on one line: 128 MiB. `accord record` writes a request body of at most
    /// its request-body limit (32 MiB) and the first 16 MiB of a response body on one line; JSON
    /// bodies are re-encoded compactly, about their own size, and text grows by its escapes, so
    /// 48 MiB of bodies fit with room for escaping. `accord serve` takes bodies of at most
    /// `HTTPLimits.body` (1 MiB).
    public static let defaultMaxLine = 128 << 20

    /// The file, for messages.
    public let file: String
    /// The longest line read, in bytes without its newline.
    public let maxLine: Int
    private var pending: [UInt8] = []
    private var lineNumber = 0
    private var sawHeader = false
    private var lastExchange = 0
    /// The torn last line's number, when `finish()` found one.
    public private(set) var tornLine: Int?

    /// Starts reading a recording.
    /// - Parameters:
    ///   - file: the file name, for messages.
    ///   - maxLine: the longest line read, in bytes (at least 1).
    public init(file: String, maxLine: Int = RecordingReader.defaultMaxLine) {
        self.file = file
        self.maxLine = max(1, maxLine)
    }

    /// Feeds the next chunk of bytes and hands every complete line to `body`.
    /// - Parameters:
    ///   - chunk: the bytes.
    ///   - body: called with each decoded line, in order.
    /// - Throws: `CorpusError` naming the file and line of a line that is not valid or longer
    ///   than `maxLine`.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Item) throws(CorpusError) -> Void) throws(CorpusError) {
        var start = 0
        var index = 0
        let count = chunk.count
        while index < count {
            if chunk[index] == 0x0A {
                try checkLength(index - start)
                if pending.isEmpty {
                    try decode(UnsafeBufferPointer(rebasing: chunk[start..<index]), body)
                } else {
                    pending.append(contentsOf: chunk[start..<index])
                    let line = pending
                    pending.removeAll(keepingCapacity: true)
                    try line.withUnsafeBufferPointer { buffer throws(CorpusError) in try decode(buffer, body) }
                }
                start = index + 1
            }
            index += 1
        }
        if start < count {
            try checkLength(count - start)
            pending.append(contentsOf: chunk[start..<count])
        }
    }

    /// Refuses a line that `more` bytes after those pending would take past the cap, before
    /// they are kept.
    private func checkLength(_ more: Int) throws(CorpusError) {
        if pending.count + more > maxLine { throw CorpusError.lineTooLong(file, line: lineNumber + 1, limit: maxLine) }
    }

    /// Ends the input: a last line without a newline is decoded when complete, else reported
    /// as torn (see `tornLine`).
    /// - Parameter body: called with the last line, when it is complete.
    /// - Throws: `CorpusError` when the recording has no header.
    public mutating func finish(_ body: (Item) throws(CorpusError) -> Void) throws(CorpusError) {
        if !pending.isEmpty && pending.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
            let line = pending
            pending.removeAll()
            let parsed = line.withUnsafeBufferPointer { JSONParser.parse($0) }
            if case .success = parsed {
                try line.withUnsafeBufferPointer { buffer throws(CorpusError) in try decode(buffer, body) }
            } else {
                tornLine = lineNumber + 1
            }
        }
        if !sawHeader { throw CorpusError.empty(file, "no recording header line (is this an accord recording?)") }
    }

    private mutating func decode(_ line: UnsafeBufferPointer<UInt8>, _ body: (Item) throws(CorpusError) -> Void) throws(CorpusError) {
        lineNumber += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let json: JSONValue
        switch JSONParser.parse(line) {
        case .success(let value): json = value
        case .failure(let error): throw CorpusError.invalidJSON(file, error, lineOffset: lineNumber - 1)
        }
        let item: Item
        do throws(WireError) {
            if !sawHeader {
                item = .header(try RecordingHeader(json: json))
                sawHeader = true
            } else {
                let exchange = try RecordedExchange(json: json, line: lineNumber)
                if exchange.number <= lastExchange {
                    throw WireError(
                        .json, at: JSONPointer(tokens: ["exchange"]),
                        "exchange numbers increase through a recording: \(exchange.number) follows \(lastExchange)")
                }
                lastExchange = exchange.number
                item = .exchange(exchange)
            }
        } catch {
            throw CorpusError.grammar(file, line: lineNumber, at: error.pointer, error.detail)
        }
        try body(item)
    }
}
