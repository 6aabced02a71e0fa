import Corpus
import Explore
import Foundation
import Harness
import JSON
import KizunaWire

/// The folder `accord explore` keeps its findings in, laid out as a corpus (cases/manifest.json,
/// transcripts/<flow>/<NNN>-<slug>.json) so `accord run` replays it and a team can copy a case
/// into its own corpus; a finding that holds a transaction open also gets its setup in
/// scenarios.json (`--scenarios`). Every file is written whole or not at all.
struct ExploreFindingsFolder {
    struct Kept {
        var caseID: String
        var file: String
        /// The scenarios file, when the finding needs one.
        var scenarios: String?
    }

    let root: String

    func keep(_ transcript: KizunaSync.ExploreTranscript, flow: String, slug: String, notes: [String]) throws(RunError) -> Kept {
        try keep(json: transcript.json, held: transcript.held, flow: flow, slug: slug, notes: notes)
    }

    /// Keeps a transcript document under the next free number of its flow.
    func keep(json transcriptJSON: JSONValue, held: [Scenarios.HeldStep], flow: String, slug: String, notes: [String]) throws(RunError)
        -> Kept
    {
        let manifestPath = root + "/cases/manifest.json"
        var manifest = try read(manifestPath)?.objectValue ?? JSONObject()
        var entries = manifest["cases"]?.arrayValue ?? []
        let taken = entries.compactMap { $0["id"]?.stringValue }.filter { $0.hasPrefix(flow + "/") }.compactMap {
            Int($0.dropFirst(flow.count + 1).prefix(3))
        }
        let number = (taken.max() ?? 0) + 1
        let digits = String(number)
        let caseID = "\(flow)/\(String(repeating: "0", count: max(0, 3 - digits.count)))\(digits)-\(slug)"
        guard Transcript.isCaseID(caseID) else { throw RunError.output(root, "no case id is left for \(flow) (\(caseID))") }
        var document = transcriptJSON.objectValue ?? JSONObject()
        document["case"] = .string(caseID)
        if var context = document["context"]?.objectValue {
            context["notes"] = .array((context["notes"]?.arrayValue ?? []) + notes.map { .string($0) })
            document["context"] = .object(context)
        }
        let json = JSONValue.object(document)
        let file = "transcripts/\(caseID).json"
        try directory(root + "/transcripts/" + flow)
        try directory(root + "/cases")
        try RecordingFile.write(CanonicalJSON.render(json), to: root + "/" + file)
        // The transcript, then its setup, then the manifest that lists it: a write that fails
        // leaves no entry pointing at a case that is not whole.
        var scenariosPath: String?
        if !held.isEmpty {
            let path = root + "/scenarios.json"
            var scenarios = try read(path)?.objectValue ?? JSONObject()
            var cases = scenarios["cases"]?.objectValue ?? JSONObject()
            cases[caseID] = [
                "about": "the transaction accord explore held open",
                "transcript_sha256": .string(TranscriptDigest.of(json)),
                "held": .array(
                    held.map {
                        [
                            "step": .number(JSONNumber($0.step)), "txn": .string($0.transaction),
                            "commit_after_step": .number(JSONNumber($0.commitAfterStep)),
                        ]
                    }),
            ]
            scenarios["cases"] = .object(cases)
            try RecordingFile.write(CanonicalJSON.render(.object(scenarios)), to: path)
            scenariosPath = path
        }
        entries.append([
            "cites": document["cites"] ?? [], "fencing": document["fencing"] ?? "shared", "file": .string(file), "id": .string(caseID),
            "priority": document["priority"] ?? "P1", "status": document["status"] ?? "proposed", "title": document["title"] ?? "",
        ])
        manifest["cases"] = .array(entries)
        if manifest["future_flows"] == nil { manifest["future_flows"] = [] }
        try RecordingFile.write(CanonicalJSON.render(.object(manifest)), to: manifestPath)
        return Kept(caseID: caseID, file: root + "/" + file, scenarios: scenariosPath)
    }

    private func read(_ path: String) throws(RunError) -> JSONValue? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try RecordingFile.json(path)
    }

    private func directory(_ path: String) throws(RunError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RunError.output(path, "cannot create the folder: \(error.localizedDescription)")
        }
    }
}
