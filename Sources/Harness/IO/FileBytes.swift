import Corpus
import Foundation

/// Whole-file and streaming reads with `CorpusError`s that name the file.
public enum FileBytes {
    /// Reads a whole file of at most `limit` bytes, in chunks, so that a larger file (or an
    /// endless one such as a device) is refused having held no more than the limit.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes read (default `RecordingReader.defaultMaxLine`).
    /// - Returns: its bytes.
    /// - Throws: `CorpusError.unreadable` naming the file and the reason, or
    ///   `CorpusError.fileTooLarge` past the limit.
    public static func read(_ path: String, limit: Int = RecordingReader.defaultMaxLine) throws(CorpusError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CorpusError.unreadable(path, "no such file")
        }
        if isDirectory.boolValue { throw CorpusError.unreadable(path, "is a folder, not a file") }
        var bytes: [UInt8] = []
        var status = stat()
        if stat(path, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(min(Int64(limit), Int64(status.st_size)))) }
        try stream(path, chunkSize: min(1 << 20, max(1, limit) + 1)) { chunk throws(CorpusError) in
            if bytes.count + chunk.count > limit { throw CorpusError.fileTooLarge(path, limit: limit) }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    /// Streams a file in fixed-size chunks, holding one chunk in memory at a time.
    /// - Parameters:
    ///   - path: the file.
    ///   - chunkSize: bytes per chunk.
    ///   - body: called with each chunk.
    /// - Throws: `CorpusError.unreadable`, or what `body` throws.
    public static func stream(
        _ path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws(CorpusError) -> Void
    ) throws(CorpusError) {
        guard let file = fopen(path, "rb") else { throw CorpusError.unreadable(path, String(cString: strerror(errno))) }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunkSize, file) }
            if count == 0 {
                if ferror(file) != 0 { throw CorpusError.unreadable(path, "read error") }
                return
            }
            try buffer.withUnsafeBufferPointer { all throws(CorpusError) in
                try body(UnsafeBufferPointer(rebasing: all[0..<count]))
            }
        }
    }
}
