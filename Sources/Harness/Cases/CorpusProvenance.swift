import Checks
import Corpus
import Foundation
import JSON
import Reports

/// Decision titles from an optional decisions/index.json, for blocked-case reasons, and the
/// corpus commit from an optional SOURCES.tsv.
package enum CorpusProvenance {
    /// The upstream commit SOURCES.tsv names for cases/manifest.json, if the file exists.
    package static func corpusCommit(_ files: FolderFiles) -> String? {
        guard let bytes = try? files.read("SOURCES.tsv") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 2, fields[0] == "cases/manifest.json" { return String(fields[1]) }
        }
        return nil
    }

    package static func read(_ files: FolderFiles) -> [String: String] {
        guard let bytes = try? files.read("decisions/index.json"), case .object(let index)? = try? JSONParser.parse(bytes) else {
            return [:]
        }
        var titles: [String: String] = [:]
        for member in index.members {
            if let title = member.value["title"]?.stringValue {
                let status = member.value["status"]?.stringValue.map { "\($0): " } ?? ""
                titles[member.key] = status + title
            }
        }
        return titles
    }
}
