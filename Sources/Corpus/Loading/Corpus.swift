import JSON

/// A transcript together with the bytes it was read from.
public struct LoadedTranscript: Sendable, Hashable {
    /// The transcript.
    public var transcript: Transcript
    /// The file as named to the user.
    public var file: String
    /// The exact bytes, for the canonical-bytes rule (I-1).
    public var raw: [UInt8]
    /// The parsed document.
    public var json: JSONValue

    /// Reads a transcript from bytes.
    /// - Parameters:
    ///   - raw: the file bytes.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` for invalid JSON, a grammar violation, or a PowerSync transcript
    ///   (read those with `PowerSync.LoadedTranscript`).
    public init(raw: [UInt8], file: String) throws(CorpusError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(raw)
        } catch {
            throw CorpusError.invalidJSON(file, error)
        }
        if try CorpusProfile.of(json, file: file) == .powerSync {
            throw CorpusError.grammar(
                file, at: JSONPointer(tokens: ["profile"]),
                "a PowerSync transcript: only accord check reads the PowerSync profile so far (docs/powersync.md)")
        }
        self.transcript = try Transcript(json: json, file: file)
        self.file = file
        self.raw = raw
        self.json = json
    }
}

/// One case of a corpus: runnable, or blocked on open decisions.
public enum CorpusCase: Sendable, Hashable {
    /// A case with a transcript; `entry` is nil for a transcript given on its own.
    case transcript(LoadedTranscript, entry: Manifest.Entry?)
    /// A manifest entry with no transcript, blocked on the named decisions.
    case blocked(Manifest.Entry)

    /// The case id.
    public var id: String {
        switch self {
        case .transcript(let loaded, _): loaded.transcript.caseID
        case .blocked(let entry): entry.id
        }
    }
}

/// A corpus folder in the upstream layout, loaded and checked against its manifest (I-12).
public struct Corpus: Sendable {
    /// The folder as the user named it.
    public var root: String
    /// The cases in manifest order.
    public var cases: [CorpusCase]

    /// Loads `cases/manifest.json` and every transcript under `transcripts/`, checking the
    /// manifest bijection (I-12): every entry names an existing transcript whose case id,
    /// cites, status, priority and title match, blocked entries have no transcript, and every
    /// transcript has exactly one entry.
    /// - Throws: `CorpusError` naming the file, step and pointer of the first problem.
    public init(files: some CorpusFiles) throws(CorpusError) {
        root = files.root
        let manifestPath = "cases/manifest.json"
        let manifestFile = files.root + "/" + manifestPath
        let manifestJSON = try files.json(manifestPath)
        let manifest = try Manifest(json: manifestJSON, file: manifestFile)
        var claimed = Set<String>()
        var seenIDs = Set<String>()
        var cases: [CorpusCase] = []
        for entry in manifest.entries {
            let at = JSONPointer(tokens: ["cases", String(entry.index)])
            if !seenIDs.insert(entry.id).inserted { throw CorpusError.manifest(manifestFile, at: at, "duplicate case id \(entry.id)") }
            guard let path = entry.file else {
                if entry.blockedOn?.isEmpty ?? true {
                    throw CorpusError.manifest(manifestFile, at: at, "blocked entry \(entry.id) needs a non-empty blocked_on")
                }
                cases.append(.blocked(entry))
                continue
            }
            if entry.blockedOn != nil {
                throw CorpusError.manifest(
                    manifestFile, at: at.appending("blocked_on"), "entry \(entry.id) has a transcript, so it is not blocked")
            }
            claimed.insert(path)
            let file = files.root + "/" + path
            let raw: [UInt8]
            do {
                raw = try files.read(path)
            } catch {
                if error.isUnreadable {
                    throw CorpusError.manifest(
                        manifestFile, at: at.appending("file"), "entry \(entry.id) names a missing transcript \(path)")
                }
                throw error
            }
            let loaded = try LoadedTranscript(raw: raw, file: file)
            try Self.checkAgreement(entry, loaded, manifestFile: manifestFile, path: path)
            cases.append(.transcript(loaded, entry: entry))
        }
        for path in files.jsonFiles(under: "transcripts") where !claimed.contains(path) {
            throw CorpusError.manifest(files.root + "/" + path, at: nil, "transcript has no manifest entry")
        }
        self.cases = cases
    }

    private static func checkAgreement(_ entry: Manifest.Entry, _ loaded: LoadedTranscript, manifestFile: String, path: String)
        throws(CorpusError)
    {
        let transcript = loaded.transcript
        let at = JSONPointer(tokens: ["cases", String(entry.index)])
        if transcript.caseID != entry.id {
            throw CorpusError.manifest(
                loaded.file, at: JSONPointer(tokens: ["case"]),
                "case \"\(transcript.caseID)\" does not equal its manifest id \"\(entry.id)\"")
        }
        let expectedPath = "transcripts/\(entry.id).json"
        if path != expectedPath {
            throw CorpusError.manifest(manifestFile, at: at.appending("file"), "entry \(entry.id) names \(path), expected \(expectedPath)")
        }
        let pairs: [(String, Bool)] = [
            ("cites", transcript.cites == entry.cites), ("status", transcript.status == entry.status),
            ("priority", transcript.priority == entry.priority), ("title", transcript.title == entry.title),
        ]
        for (field, equal) in pairs where !equal {
            throw CorpusError.manifest(
                manifestFile, at: at.appending(field), "manifest \(field) does not equal transcript \(path) \(field)")
        }
    }
}
