import JSON

/// Read access to a corpus folder; the runner supplies the file-system implementation so the
/// corpus layer stays free of I/O.
public protocol CorpusFiles: Sendable {
    /// The folder as the user named it, for messages.
    var root: String { get }
    /// The bytes of a file.
    /// - Parameter relativePath: the path under the root, e.g. "cases/manifest.json".
    /// - Returns: the bytes.
    /// - Throws: `CorpusError` when it cannot be read.
    func read(_ relativePath: String) throws(CorpusError) -> [UInt8]
    /// Every `.json` file under a folder, recursively, as root-relative paths, sorted.
    /// - Parameter relativeFolder: the folder under the root, e.g. "transcripts".
    /// - Returns: the paths; empty when the folder is absent.
    func jsonFiles(under relativeFolder: String) -> [String]
}

extension CorpusFiles {
    /// A file of the folder parsed as JSON.
    /// - Parameter relativePath: the path under the root, e.g. "cases/manifest.json".
    /// - Returns: the value.
    /// - Throws: `CorpusError` when it cannot be read, or `invalidJSON` naming the file.
    public func json(_ relativePath: String) throws(CorpusError) -> JSONValue {
        let bytes = try read(relativePath)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw CorpusError.invalidJSON(root + "/" + relativePath, error)
        }
    }
}
