import Corpus
import Foundation

/// A known-failing list (`--known-failing FILE`): case ids, one per line, `#` comments. A listed
/// case must fail; it is then reported skipped, and a listed case that passes (a stale entry)
/// fails the run.
public struct KnownFailing: Sendable, Hashable {
    /// The listed case ids.
    public var caseIDs: Set<String>

    /// An empty list.
    public init() { caseIDs = [] }

    /// Reads a list.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming a line that is not a case id.
    public init(text: String, file: String) throws(CorpusError) {
        var ids: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let id = line.trimmingCharacters(in: .whitespaces)
            if id.isEmpty { continue }
            if id.contains(where: { $0 == " " || $0 == "\t" }) {
                throw CorpusError.grammar(file, line: index + 1, at: .root, "a known-failing line holds one case id, found \"\(id)\"")
            }
            ids.insert(id)
        }
        caseIDs = ids
    }
}
