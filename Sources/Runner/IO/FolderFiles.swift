import Corpus
import Foundation

/// A corpus folder on disk: the `CorpusFiles` the corpus layer reads through.
public struct FolderFiles: CorpusFiles {
    /// The folder as the user named it.
    public let root: String

    /// Opens a folder.
    /// - Parameter root: the folder path.
    public init(root: String) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
    }

    /// Reads a file under the folder.
    public func read(_ relativePath: String) throws(CorpusError) -> [UInt8] {
        try FileBytes.read(root + "/" + relativePath)
    }

    /// Lists `.json` files under a subfolder, recursively, sorted.
    public func jsonFiles(under relativeFolder: String) -> [String] {
        let base = URL(fileURLWithPath: root).appendingPathComponent(relativeFolder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var paths: [String] = []
        let prefix = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
        for case let url as URL in walker where url.pathExtension == "json" {
            let full = url.standardizedFileURL.path
            paths.append(full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full)
        }
        return paths.sorted()
    }
}

/// Whole-file and streaming reads with `CorpusError`s that name the file.
public enum FileBytes {
    /// Reads a whole file.
    /// - Parameter path: the file.
    /// - Returns: its bytes.
    /// - Throws: `CorpusError.unreadable` naming the file and the reason.
    public static func read(_ path: String) throws(CorpusError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CorpusError.unreadable(path, "no such file")
        }
        if isDirectory.boolValue { throw CorpusError.unreadable(path, "is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw CorpusError.unreadable(path, "cannot be read") }
        return [UInt8](data)
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
