import Corpus
import Foundation

/// A corpus folder on disk: the `CorpusFiles` the corpus layer reads through.
public struct FolderFiles: CorpusFiles {
    /// The folder as the user named it.
    public let root: String
    /// The largest file read, in bytes.
    public let limit: Int

    /// Opens a folder.
    /// - Parameters:
    ///   - root: the folder path.
    ///   - limit: the largest file read, in bytes (`--max-line`).
    public init(root: String, limit: Int = RecordingReader.defaultMaxLine) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
        self.limit = limit
    }

    /// Reads a file under the folder.
    /// - Parameter relativePath: the path under the root.
    /// - Returns: the bytes.
    /// - Throws: `CorpusError.unreadable` naming the file, or `.fileTooLarge` over `limit`.
    public func read(_ relativePath: String) throws(CorpusError) -> [UInt8] {
        try FileBytes.read(root + "/" + relativePath, limit: limit)
    }

    /// Lists `.json` files under a subfolder, recursively, sorted.
    /// - Parameter relativeFolder: the folder under the root.
    /// - Returns: root-relative paths, sorted.
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
