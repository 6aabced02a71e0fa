import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// A PowerSync corpus folder: `cases/manifest.json` with `"profile": "powersync"` and one entry
    /// per transcript under `transcripts/`, checked as a bijection (every entry names an existing
    /// transcript whose case id and title match, and every transcript has one entry).
    public struct Corpus: Sendable {
        /// The folder as the user named it.
        public var root: String
        /// The transcripts in manifest order.
        public var cases: [PowerSync.LoadedTranscript]

        /// Loads the folder.
        /// - Throws: `CorpusError` naming the file and pointer of the first problem.
        public init(files: some CorpusFiles) throws(CorpusError) {
            root = files.root
            let manifestFile = files.root + "/cases/manifest.json"
            let manifest = try files.json("cases/manifest.json")
            var entries: [(id: String, file: String, title: String, at: JSONPointer)] = []
            do throws(WireError) {
                var reader = try ObjectReader(manifest, at: .root, malformed: .json)
                _ = try reader.string("profile")
                for (index, element) in try reader.array("cases").enumerated() {
                    let at = JSONPointer(tokens: ["cases", String(index)])
                    var entry = try ObjectReader(element, at: at, malformed: .json)
                    let id = try entry.string("id")
                    if !PowerSync.Transcript.isCaseID(id) {
                        throw WireError(.json, at: at.appending("id"), "case id \"\(id)\" is not powersync/<NNN>-<slug>")
                    }
                    entries.append((id, try entry.string("file"), try entry.string("title"), at))
                    try entry.finish()
                }
                try reader.finish()
            } catch {
                throw CorpusError.grammar(manifestFile, at: error.pointer, error.detail)
            }
            var cases: [PowerSync.LoadedTranscript] = []
            var seen = Set<String>()
            for entry in entries {
                if !seen.insert(entry.id).inserted {
                    throw CorpusError.manifest(manifestFile, at: entry.at, "duplicate case id \(entry.id)")
                }
                let expected = "transcripts/\(entry.id.dropFirst("powersync/".count)).json"
                if entry.file != expected {
                    throw CorpusError.manifest(
                        manifestFile, at: entry.at.appending("file"), "entry \(entry.id) names \(entry.file), expected \(expected)")
                }
                let file = files.root + "/" + entry.file
                let raw: [UInt8]
                do {
                    raw = try files.read(entry.file)
                } catch {
                    throw CorpusError.manifest(
                        manifestFile, at: entry.at.appending("file"), "entry \(entry.id) names a missing transcript \(entry.file)")
                }
                let json: JSONValue
                do { json = try JSONParser.parse(raw) } catch { throw CorpusError.invalidJSON(file, error) }
                let loaded = try PowerSync.LoadedTranscript(raw: raw, json: json, file: file)
                if loaded.transcript.caseID != entry.id {
                    throw CorpusError.manifest(
                        file, at: JSONPointer(tokens: ["case"]),
                        "case \"\(loaded.transcript.caseID)\" does not equal its manifest id \"\(entry.id)\"")
                }
                if loaded.transcript.title != entry.title {
                    throw CorpusError.manifest(
                        manifestFile, at: entry.at.appending("title"), "manifest title does not equal transcript \(entry.file) title")
                }
                cases.append(loaded)
            }
            let claimed = Set(entries.map(\.file))
            for path in files.jsonFiles(under: "transcripts") where !claimed.contains(path) {
                throw CorpusError.manifest(files.root + "/" + path, at: nil, "transcript has no manifest entry")
            }
            self.cases = cases
        }
    }
}
