import Foundation
import Reports

/// A report file written through a buffered stdio stream; written to a temporary name and
/// renamed into place on `close()`, so a crash never leaves a half report under the real name.
public final class FileSink: ReportSink {
    private let path: String
    private let temporaryPath: String
    private var file: UnsafeMutablePointer<FILE>?

    /// Opens the temporary file beside `path`.
    /// - Parameter path: the report's final path.
    /// - Throws: `RunError` when it cannot be created.
    public init(path: String) throws(RunError) {
        self.path = path
        self.temporaryPath = path + ".partial"
        guard let file = fopen(temporaryPath, "wb") else {
            throw RunError.output(path, String(cString: strerror(errno)))
        }
        self.file = file
    }

    /// Writes bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let file, let base = bytes.baseAddress, bytes.count > 0 else { return }
        if fwrite(base, 1, bytes.count, file) != bytes.count { throw RunError.output(path, String(cString: strerror(errno))) }
    }

    /// Flushes, closes and renames the report into place.
    /// - Throws: `RunError` when the file cannot be completed.
    public func close() throws(RunError) {
        guard let file else { return }
        self.file = nil
        if fflush(file) != 0 || fsync(fileno(file)) != 0 {
            fclose(file)
            throw RunError.output(path, String(cString: strerror(errno)))
        }
        fclose(file)
        if rename(temporaryPath, path) != 0 { throw RunError.output(path, String(cString: strerror(errno))) }
    }

    deinit {
        if let file {
            fclose(file)
            unlink(temporaryPath)
        }
    }
}
