import Capture
import Corpus
import Foundation
import JSON
import PowerSyncWire
import Reports

/// Where a run's cases come from, for every lane: the inputs (corpus folders, transcripts,
/// recordings) loaded in order, then the `--filter` glob over case ids and this run's
/// `--shard`. The lanes only play what it selects.
package struct CaseSource: Sendable {
    /// A case to run, or a blocked manifest entry to report as skipped.
    package struct Case: Sendable {
        /// What the case is.
        package enum Kind: Sendable {
            case transcript(LoadedTranscript)
            case recording(RecordingSource)
            case blocked(Manifest.Entry)
            /// A case no live lane can play yet, reported skipped with why.
            case unsupported(file: String, reason: String)
            /// A PowerSync case: the lanes that play PowerSync cases play it (the server lane on a
            /// PowerSync target, the client lane and kill matrix with a PowerSync driver), the
            /// others report it skipped with `powerSyncReason`.
            case powerSync(PowerSync.LoadedTranscript)
        }
        /// What the case is.
        package var kind: Kind
        /// Its id: the transcript's case id, or the recording's file name.
        package var id: String
        /// The corpus's decisions, for a blocked entry's reason.
        package var decisions: [String: String]
        /// The corpus folder it came from; nil for a transcript or recording given by path.
        package var folder: String? = nil
    }

    /// How recordings are read: as the lanes play them (a PowerSync session converted to the
    /// transcript it replays as), or as recorded, for a lane that reads the file itself
    /// (`accord check`, `accord diff`).
    package enum Reading: Sendable {
        case played
        case recorded
    }

    /// Corpus folders, transcript files or recordings.
    package var paths: [String]
    /// The longest recording line, and the largest transcript, read.
    package var maxLine = RecordingReader.defaultMaxLine
    /// A glob over case ids (e.g. "push/*").
    package var filter: String?
    /// This run's shard, 1-based, and the shard count.
    package var shard: (index: Int, count: Int) = (1, 1)
    /// How recordings are read.
    package var reading = Reading.played

    /// The cases of this shard after the filter, and every case id of the inputs.
    /// - Returns: the selected cases, in input order, and all ids.
    /// - Throws: `RunError` for bad input, or a filter that matches no case.
    package func selected() throws(RunError) -> (cases: [Case], ids: Set<String>) {
        let all = try load()
        let filtered = all.filter { Self.matches($0.id, filter) }
        if filtered.isEmpty, let filter {
            throw RunError.usage("--filter '\(filter)' matches no case id\(reading == .recorded ? " or recording file name" : "")")
        }
        let cases = filtered.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        return (cases, Set(all.map(\.id)))
    }

    /// Every case of the inputs, blocked entries included, before filtering and sharding.
    /// - Returns: the cases in input order.
    /// - Throws: `RunError` for bad input.
    package func load() throws(RunError) -> [Case] {
        var loaded: [Case] = []
        for path in paths {
            switch try CheckInput.classify(path) {
            case .corpus(let folder):
                if try Self.profile(of: folder) == .powerSync {
                    do throws(CorpusError) {
                        for item in try PowerSync.Corpus(files: FolderFiles(root: folder, limit: maxLine)).cases {
                            loaded.append(Case(kind: .powerSync(item), id: item.transcript.caseID, decisions: [:], folder: folder))
                        }
                    } catch {
                        throw RunError.input(error)
                    }
                    continue
                }
                let decisions = CorpusProvenance.read(FolderFiles(root: folder))
                do throws(CorpusError) {
                    for item in try Corpus(files: FolderFiles(root: folder, limit: maxLine)).cases {
                        switch item {
                        case .transcript(let transcript, _):
                            loaded.append(Case(kind: .transcript(transcript), id: item.id, decisions: decisions, folder: folder))
                        case .blocked(let entry):
                            loaded.append(Case(kind: .blocked(entry), id: item.id, decisions: decisions, folder: folder))
                        }
                    }
                } catch {
                    throw RunError.input(error)
                }
            case .transcript(let file):
                do throws(CorpusError) { loaded.append(try Self.transcriptCase(file, maxLine: maxLine)) } catch {
                    throw RunError.input(error)
                }
            case .recording(let file):
                // Read once here, holding one line at a time, so a bad line is an input error
                // before the first case; a KizunaSync recording is read again when it is played.
                guard reading == .played, try Self.isPowerSync(file, maxLine: maxLine) else {
                    loaded.append(
                        Case(kind: .recording(.file(file, maxLine: maxLine)), id: (file as NSString).lastPathComponent, decisions: [:]))
                    continue
                }
                // A PowerSync session replays as the transcript it converts to (its fixture calls the
                // source steps), so the lanes play it with their transcript play.
                let contents = try RecordingFile.load(file, maxLine: maxLine)
                do throws(CorpusError) {
                    let replay = try PowerSync.RecordingToTranscript.replay(contents, file: file)
                    loaded.append(Case(kind: .powerSync(replay.loaded), id: (file as NSString).lastPathComponent, decisions: [:]))
                } catch {
                    throw RunError.input(error)
                }
            }
        }
        return loaded
    }

    /// A transcript file as a case, its profile chosen by its `profile` member.
    private static func transcriptCase(_ path: String, maxLine: Int) throws(CorpusError) -> Case {
        let raw = try FileBytes.read(path, limit: maxLine)
        let json: JSONValue
        do { json = try JSONParser.parse(raw) } catch { throw CorpusError.invalidJSON(path, error) }
        switch try CorpusProfile.of(json, file: path) {
        case .powerSync:
            let loaded = try PowerSync.LoadedTranscript(raw: raw, json: json, file: path)
            return Case(kind: .powerSync(loaded), id: loaded.transcript.caseID, decisions: [:])
        case .kizunaSync:
            let loaded = try LoadedTranscript(raw: raw, file: path)
            return Case(kind: .transcript(loaded), id: loaded.transcript.caseID, decisions: [:])
        }
    }

    /// Whether a recording is a PowerSync session (its header names the profile, or an exchange
    /// is on a PowerSync route), read line by line.
    package static func isPowerSync(_ file: String, maxLine: Int) throws(RunError) -> Bool {
        let stream = try RecordingStream(path: file, maxLine: maxLine)
        var powerSync = false
        var header = false
        while let item = try stream.next() {
            switch item {
            case .header(let read):
                header = true
                powerSync = powerSync || read.protocolName == CorpusProfile.powerSync.rawValue
            case .exchange(let exchange):
                powerSync = powerSync || PowerSync.Surface.route(kind: exchange.rpc) != nil
            }
        }
        if !header { throw RunError.input(CorpusError.empty(file, "no recording header line (is this an accord recording?)")) }
        return powerSync
    }

    /// Why a lane or target that does not play PowerSync cases skips one.
    package static let powerSyncReason =
        "not applicable/not yet supported: this lane or target does not play PowerSync cases; the server lane plays them against --server embedded or a PowerSync service's URL, the client lane and the kill matrix against a driver whose hello says profile powersync (docs/powersync.md)"

    /// The profile of a corpus folder.
    private static func profile(of folder: String) throws(RunError) -> CorpusProfile {
        do throws(CorpusError) { return try CorpusProfile.of(folder: FolderFiles(root: folder)) } catch { throw RunError.input(error) }
    }

    /// The suite of a case no live lane can play: one skipped case saying why.
    /// - Parameters:
    ///   - id: the case id.
    ///   - file: its file.
    ///   - reason: why.
    ///   - properties: the suite's properties (its `lane` names the classname's lane).
    /// - Returns: the suite.
    package static func unsupportedSuite(_ id: String, file: String, reason: String, properties: [SuiteResult.Property]) -> SuiteResult {
        let lane = properties.lane?.rawValue ?? "run"
        return SuiteResult(
            name: id, file: file, properties: properties,
            cases: [CaseResult(name: "powersync", classname: CaseResult.classname(lane: lane, caseID: id), outcome: .skipped(reason))])
    }

    /// Whether a case id (or a recording's file name) is selected by a `--filter` glob.
    /// - Parameters:
    ///   - id: the id.
    ///   - filter: the glob; nil selects everything.
    /// - Returns: true when selected.
    package static func matches(_ id: String, _ filter: String?) -> Bool {
        guard let filter else { return true }
        return fnmatch(filter, id, 0) == 0
    }
}
