import JSON

/// Which protocol a transcript, manifest or corpus folder speaks, from its top-level
/// `"profile"` member: absent (upstream's grammar has no such key) is KizunaSync, `"powersync"`
/// is the PowerSync profile (docs/powersync.md). The lanes choose their rules from it, so no
/// flag is needed.
public enum CorpusProfile: String, Sendable, Hashable {
    /// KizunaSync (upstream's corpus and Accord's own cases).
    case kizunaSync = "kizunasync"
    /// PowerSync's sync stream, write checkpoints and checkpoint requests.
    case powerSync = "powersync"

    /// The profile a parsed document declares.
    /// - Parameters:
    ///   - document: the parsed transcript or manifest.
    ///   - file: the file, for errors.
    /// - Returns: the profile.
    /// - Throws: `CorpusError` for a `profile` that is not a known profile name.
    public static func of(_ document: JSONValue, file: String) throws(CorpusError) -> CorpusProfile {
        guard let value = document["profile"] else { return .kizunaSync }
        guard let name = value.stringValue, let profile = CorpusProfile(rawValue: name) else {
            throw CorpusError.grammar(
                file, at: JSONPointer(tokens: ["profile"]),
                "expected \"kizunasync\" or \"powersync\", found \(CanonicalJSON.compact(value))")
        }
        return profile
    }

    /// The profile of a corpus folder, from its `cases/manifest.json`; KizunaSync when the
    /// manifest cannot be read (the corpus loader then reports why).
    /// - Returns: the profile.
    /// - Throws: `CorpusError` for a manifest whose `profile` is not a known profile name.
    public static func of(folder files: some CorpusFiles) throws(CorpusError) -> CorpusProfile {
        guard let bytes = try? files.read("cases/manifest.json"), let json = try? JSONParser.parse(bytes) else { return .kizunaSync }
        return try of(json, file: files.root + "/cases/manifest.json")
    }
}
