import Foundation
import Glibc
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
        try Self.checkWritable(path)
        self.path = path
        self.temporaryPath = path + ".partial"
        guard let file = Self.create(temporaryPath) else {
            throw RunError.output(path, "cannot create \(temporaryPath): \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    /// Creates the temporary file afresh: never through a link (`O_NOFOLLOW`), never into a file
    /// that is there (`O_EXCL`). What is at the name already (a crashed run's leftover, or a link
    /// someone planted to have the report overwrite another file) is removed first, the link
    /// itself and not what it points to; a name that is taken again at once is an error.
    private static func create(_ temporaryPath: String) -> UnsafeMutablePointer<FILE>? {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = open(temporaryPath, flags, 0o666)
        if fd < 0 && errno == EEXIST {
            unlink(temporaryPath)
            fd = open(temporaryPath, flags, 0o666)
        }
        guard fd >= 0 else { return nil }
        guard let file = fdopen(fd, "wb") else {
            Glibc.close(fd)
            return nil
        }
        return file
    }

    /// Refuses a report path that cannot become a file: a folder, or one whose folder is missing.
    /// - Parameter path: the report path.
    /// - Throws: `RunError` naming the path and the reason.
    public static func checkWritable(_ path: String) throws(RunError) {
        if path.isEmpty { throw RunError.output(path, "the report path is empty") }
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw RunError.output(path, "is a folder; give a file path")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            if !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
                throw RunError.output(path, "folder \(parent) does not exist")
            }
            if !isDirectory.boolValue { throw RunError.output(path, "\(parent) is a file, not a folder") }
        }
    }

    /// The path with its folder's symbolic links resolved, so that two spellings of one file
    /// compare equal even before the file exists.
    /// - Parameter path: a file path.
    /// - Returns: the resolved absolute path.
    public static func resolved(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath()
        return folder.appendingPathComponent(url.lastPathComponent).path
    }

    /// Writes bytes.
    /// - Throws: `RunError` when the file cannot take them.
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
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw RunError.output(path, reason)
        }
    }

    deinit {
        if let file {
            fclose(file)
            unlink(temporaryPath)
        }
    }
}
