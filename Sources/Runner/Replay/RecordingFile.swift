import Corpus
import Foundation
import KizunaWire

/// Reads and writes whole recordings, transcripts and HAR files for replay and conversion; the
/// conversions themselves are pure (Corpus/Convert).
public enum RecordingFile {
    /// Reads a recording into memory.
    /// - Parameter path: the recording file.
    /// - Returns: its header, exchanges and torn line.
    /// - Throws: `RunError` for an unreadable file or a bad line (exit 64).
    public static func load(_ path: String) throws(RunError) -> RecordingContents {
        do throws(CorpusError) {
            return try RecordingContents(bytes: try FileBytes.read(path), file: path)
        } catch {
            throw RunError.input(error)
        }
    }

    /// Reads a JSON file.
    /// - Parameter path: the file.
    /// - Returns: the parsed document.
    /// - Throws: `RunError` for an unreadable file or invalid JSON.
    public static func json(_ path: String) throws(RunError) -> JSONValue {
        do throws(CorpusError) {
            let bytes = try FileBytes.read(path)
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
