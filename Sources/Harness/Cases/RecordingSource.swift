import Corpus
import Foundation

/// A recording a lane replays: a file, streamed where the lane allows it (the server lane reads
/// it twice, to survey it and to replay it, holding one exchange at a time) or read whole where
/// the lane needs every exchange at once (the client lane groups sessions), or a recording
/// already held in memory.
package enum RecordingSource: Sendable {
    /// A recording file, read again each time.
    case file(String, maxLine: Int)
    /// A recording in memory, named by its file.
    case held(RecordingContents, file: String)

    /// The recording's path, for reports.
    package var file: String {
        switch self {
        case .file(let path, _): path
        case .held(_, let file): file
        }
    }

    /// The whole recording.
    /// - Throws: `RunError` for an unreadable file or a bad line.
    package func contents() throws(RunError) -> RecordingContents {
        switch self {
        case .file(let path, let maxLine): try RecordingFile.load(path, maxLine: maxLine)
        case .held(let contents, _): contents
        }
    }

    /// The recording's lines in order, read as they are asked for.
    /// - Throws: `RunError` for a file that cannot be opened.
    package func stream() throws(RunError) -> RecordingStream {
        switch self {
        case .file(let path, let maxLine): try RecordingStream(path: path, maxLine: maxLine)
        case .held(let contents, _): RecordingStream(contents)
        }
    }
}

/// A recording's lines, decoded one chunk of the file at a time as they are asked for (`next`),
/// so a recording of any length is replayed holding no more than a chunk, its longest line and
/// the exchanges of one chunk.
package final class RecordingStream {
    private enum Backing {
        case file(UnsafeMutablePointer<FILE>, RecordingReader)
        case memory
    }

    private var backing: Backing
    private var queued: [RecordingReader.Item] = []
    private var head = 0
    private var done = false
    private let path: String
    /// The torn last line, once the stream has ended.
    package private(set) var tornLine: Int?

    /// Opens a recording file.
    /// - Throws: `RunError` when the file cannot be opened.
    package init(path: String, maxLine: Int) throws(RunError) {
        guard let file = fopen(path, "rb") else {
            throw RunError.input(CorpusError.unreadable(path, String(cString: strerror(errno))))
        }
        self.path = path
        backing = .file(file, RecordingReader(file: path, maxLine: maxLine))
    }

    /// Streams a recording held in memory.
    package init(_ contents: RecordingContents) {
        path = ""
        backing = .memory
        queued = [.header(contents.header)] + contents.exchanges.map { .exchange($0) }
        tornLine = contents.tornLine
        done = true
    }

    deinit {
        if case .file(let file, _) = backing { fclose(file) }
    }

    /// The next line's item, or nil at the end.
    /// - Throws: `RunError` for a line that breaks the recording grammar or a read error.
    package func next() throws(RunError) -> RecordingReader.Item? {
        while head == queued.count {
            guard !done, case .file(let file, var reader) = backing else { return nil }
            queued.removeAll(keepingCapacity: true)
            head = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, 1 << 16, file) }
            do throws(CorpusError) {
                if count == 0 {
                    if ferror(file) != 0 { throw CorpusError.unreadable(path, "read error") }
                    try reader.finish { self.queued.append($0) }
                    tornLine = reader.tornLine
                    done = true
                } else {
                    try chunk.withUnsafeBufferPointer { all throws(CorpusError) in
                        try reader.feed(UnsafeBufferPointer(rebasing: all[0..<count])) { self.queued.append($0) }
                    }
                }
            } catch {
                throw RunError.input(error)
            }
            backing = .file(file, reader)
        }
        defer { head += 1 }
        return queued[head]
    }
}
