import Corpus
import Foundation
import JSON

/// Reads and writes whole recordings, transcripts and HAR files for replay and conversion; the
/// conversions themselves are pure (Corpus/Convert).
public enum RecordingFile {
    /// Reads a recording into memory, streaming its lines through `RecordingReader`.
    /// - Parameters:
    ///   - path: the recording file.
    ///   - maxLine: the longest line read, in bytes.
    /// - Returns: its header, exchanges and torn line.
    /// - Throws: `RunError` for an unreadable file, a bad line or one over `maxLine` (exit 64).
    public static func load(_ path: String, maxLine: Int = RecordingReader.defaultMaxLine) throws(RunError) -> RecordingContents {
        var reader = RecordingReader(file: path, maxLine: maxLine)
        var header: RecordingHeader?
        var exchanges: [RecordedExchange] = []
        let take: (RecordingReader.Item) throws(CorpusError) -> Void = { item in
            switch item {
            case .header(let read): header = read
            case .exchange(let exchange): exchanges.append(exchange)
            }
        }
        do throws(CorpusError) {
            try FileBytes.stream(path) { chunk throws(CorpusError) in try reader.feed(chunk, take) }
            try reader.finish(take)
            guard let header else { throw CorpusError.empty(path, "no recording header line (is this an accord recording?)") }
            return RecordingContents(header: header, exchanges: exchanges, tornLine: reader.tornLine)
        } catch {
            throw RunError.input(error)
        }
    }

    /// Reads a JSON file.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the largest file read, in bytes.
    /// - Returns: the parsed document.
    /// - Throws: `RunError` for an unreadable file, one over `limit` or invalid JSON.
    public static func json(_ path: String, limit: Int = RecordingReader.defaultMaxLine) throws(RunError) -> JSONValue {
        do throws(CorpusError) {
            let bytes = try FileBytes.read(path, limit: limit)
            do { return try JSONParser.parse(bytes) } catch { throw CorpusError.invalidJSON(path, error) }
        } catch {
            throw RunError.input(error)
        }
    }

    /// Writes bytes to a file through a `FileSink` (a `.partial` file renamed into place).
    /// - Parameters:
    ///   - bytes: the contents.
    ///   - path: the file.
    /// - Throws: `RunError` when it cannot be written.
    public static func write(_ bytes: [UInt8], to path: String) throws(RunError) {
        let sink = try FileSink(path: path)
        do {
            try bytes.withUnsafeBytes { try sink.write($0) }
        } catch let error as RunError {
            throw error
        } catch {
            throw RunError.output(path, "\(error)")
        }
        try sink.close()
    }
}
