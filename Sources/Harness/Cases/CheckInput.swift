import Corpus
import Foundation

/// What one path given to `accord check` is.
public enum CheckInput: Sendable {
    /// A corpus folder (it has cases/manifest.json).
    case corpus(String)
    /// One transcript file.
    case transcript(String)
    /// A recording (JSON Lines with an accord header).
    case recording(String)

    /// Classifies a path by what is on disk.
    /// - Returns: the input.
    /// - Throws: `RunError` when the path is missing or is a folder without a manifest.
    public static func classify(_ path: String) throws(RunError) -> CheckInput {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RunError.input(CorpusError.unreadable(path, "no such file or folder"))
        }
        if isDirectory.boolValue {
            let manifest = (path as NSString).appendingPathComponent("cases/manifest.json")
            guard FileManager.default.fileExists(atPath: manifest) else {
                throw RunError.input(CorpusError.unreadable(manifest, "no such file: a corpus folder has cases/manifest.json"))
            }
            return .corpus(path)
        }
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") || sniffsAsRecording(path) { return .recording(path) }
        return .transcript(path)
    }

    private static func sniffsAsRecording(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        let firstLine = head.prefix { $0 != 0x0A }
        return String(decoding: firstLine, as: UTF8.self).contains("\"accord_recording\"")
    }
}
