import JSON
import KizunaWire

/// `cases/manifest.json`: the registry of every case (schemas/manifest.schema.json).
public struct Manifest: Sendable, Hashable {
    /// One registered case.
    public struct Entry: Sendable, Hashable {
        /// The case id.
        public var id: String
        /// The transcript path relative to the corpus root; nil for a blocked entry.
        public var file: String?
        /// The open decisions that block the case; present iff `file` is nil.
        public var blockedOn: [String]?
        /// Citations.
        public var cites: [String]
        /// The status.
        public var status: String
        /// The priority.
        public var priority: String
        /// The title.
        public var title: String
        /// Prose notes.
        public var notes: [String]
        /// The entry's index in the manifest.
        public var index: Int
    }

    /// The entries in manifest order.
    public var entries: [Entry]

    /// Reads the manifest strictly.
    /// - Parameters:
    ///   - json: the parsed file.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming the entry's pointer.
    public init(json: JSONValue, file: String) throws(CorpusError) {
        do throws(WireError) {
            var reader = try ObjectReader(json, at: .root, malformed: .json)
            _ = try reader.array("future_flows")
            var entries: [Entry] = []
            for (index, element) in try reader.array("cases").enumerated() {
                let at = JSONPointer(tokens: ["cases", String(index)])
                var entry = try ObjectReader(element, at: at, malformed: .json)
                let id = try entry.string("id")
                if !Transcript.isCaseID(id) {
                    throw WireError(.json, at: at.appending("id"), "case id \"\(id)\" is not <flow>/<NNN>-<slug>")
                }
                let path = try entry.optionalString("file", allowNull: true)
                if !entry.has("file") { throw WireError(.json, at: at, "missing required key \"file\"") }
                let blockedOn = try entry.optional("blocked_on").map { v throws(WireError) in
                    try ObjectReader.strings(v, at: at.appending("blocked_on"))
                }
                _ = try entry.string("fencing")
                entries.append(
                    Entry(
                        id: id, file: path, blockedOn: blockedOn,
                        cites: try ObjectReader.strings(try entry.required("cites"), at: at.appending("cites")),
                        status: try entry.string("status"), priority: try entry.string("priority"), title: try entry.string("title"),
                        notes: try entry.optional("notes").map { v throws(WireError) in
                            try ObjectReader.strings(v, at: at.appending("notes"))
                        } ?? [],
                        index: index))
                try entry.finish()
            }
            try reader.finish()
            self.entries = entries
        } catch {
            throw CorpusError.grammar(file, at: error.pointer, error.detail)
        }
    }
}
