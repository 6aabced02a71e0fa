import Corpus
import Foundation
import JSON
import KizunaWire
import Testing

/// Accord's built-in scenario setup for upstream's KizunaSync corpus (issue 37): it states the
/// same setup as ../shared/corpus-scenarios.json (upstream's cases, condensed by another hand),
/// names the transcripts it was read from by digest, and a case whose golden needs setup that
/// nothing meets is found from the golden alone.
@Suite("built-in scenario setup")
struct BuiltInScenariosTests {
    static func shared() throws -> Scenarios {
        let url = SharedCorpus.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus-scenarios.json")
        return try Scenarios(json: try JSONParser.parse(Array(try Data(contentsOf: url))), file: url.path)
    }

    static func loaded(_ caseID: String) throws -> LoadedTranscript {
        let path = "transcripts/\(caseID).json"
        return try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path)
    }

    @Test("the built-in text reads, and states for every case the setup the shared scenarios file states")
    func sameAsShared() throws {
        let builtIn = try Scenarios(json: try JSONParser.parse(Array(Scenarios.builtInText.utf8)), file: "built-in")
        #expect(builtIn == Scenarios.builtIn)
        let shared = try Self.shared()
        #expect(Set(builtIn.cases.keys) == Set(shared.cases.keys))
        for (caseID, scenario) in shared.cases {
            #expect(builtIn.cases[caseID] == scenario, "\(caseID)")
        }
    }

    @Test("each digest is the sha256sum of the shared transcript it names, and the canonical rendering's")
    func digestsMatchTheSharedCopy() throws {
        var checked = 0
        for (caseID, digest) in Scenarios.builtIn.writtenFor {
            let path = "transcripts/\(caseID).json"
            let raw = try SharedCorpus.bytes(path)
            let loaded = try LoadedTranscript(raw: raw, file: path)
            #expect(TranscriptDigest.of(loaded.json) == digest, "\(caseID)")
            #expect(CanonicalJSON.render(loaded.json) == raw, "\(caseID) is canonical, so its file digest is the same")
            checked += 1
        }
        #expect(checked == 3, "the three setup cases in the shared copy carry a digest")
    }

    @Test("the golden alone shows which shared cases need setup: exactly the three the setup lists")
    func needsFoundFromTheGolden() throws {
        var needing: [String] = []
        for path in SharedCorpus.transcriptPaths {
            let loaded = try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path)
            if !ScenarioNeeds(loaded.transcript).unmet(by: .none).isEmpty { needing.append(loaded.transcript.caseID) }
        }
        #expect(
            needing.sorted() == [
                "fencing/001-late-commit-delivered", "lifecycle/001-checkpoint-expired-rehydrate",
                "lifecycle/005-bootstrap-after-reap-pages-to-completion",
            ])
        let fencing = ScenarioNeeds(try Self.loaded("fencing/001-late-commit-delivered").transcript)
        #expect(fencing.heldTransaction?.description == "step 3 answers a cursor with a hole, \"6~5\"")
        #expect(fencing.numbering?.step == 3)
    }

    @Test("what the golden needs is bounded from above: a drop-ack's applied push counts, a refused pull from the future shows nothing")
    func needsAreAnUpperBound() throws {
        let original = try SharedCorpus.value("transcripts/push/001-insert-applied.json")
        let push = try #require(original.value(at: JSONPointer(tokens: ["steps", "2", "request"])))
        // The push's answer lost: the server applied it (seq 1), and the pull at step 5 delivers it.
        let dropped = original.replacing(
            at: JSONPointer(tokens: ["steps", "2"]),
            with: .object(["kind": "fault", "n": 3, "fault": "drop-ack", "target": "push", "request": push]))
        let droppedCase = try loadTranscript(dropped)
        #expect(ScenarioNeeds(droppedCase.transcript).numbering == nil, "the applied push stamped the seq the pull delivers")

        // A pull from a cursor no seq reached, refused with 400: a case about refusing it, not one that needs history.
        var steps = original["steps"]?.arrayValue ?? []
        steps.append(
            .object([
                "kind": "rpc", "n": 7, "rpc": "pull", "status": 400,
                "request": .object([
                    "buckets": original.value(at: JSONPointer(tokens: ["steps", "4", "request", "buckets"])) ?? .null,
                    "client_id": "00000000-0000-4000-8000-c10000000001", "cursor": "99", "schema_version": 1,
                ]),
                "response": .object(["code": "22023", "details": .null, "hint": .null, "message": "cursor from the future"]),
            ]))
        let refused = try loadTranscript(original.replacing(at: JSONPointer(tokens: ["steps"]), with: .array(steps)))
        #expect(ScenarioNeeds(refused.transcript).numbering == nil)

        // The same pull as a 2xx answer is a need: a golden numbered above anything the case stamped.
        steps[steps.count - 1] = steps[steps.count - 1].replacing(at: JSONPointer(tokens: ["status"]), with: nil)
            .replacing(
                at: JSONPointer(tokens: ["response"]),
                with: .object(["cursor": "99", "has_more": false, "rows": .array([]), "signal": .null, "tombstones": .array([])]))
        let needing = try loadTranscript(original.replacing(at: JSONPointer(tokens: ["steps"]), with: .array(steps)))
        #expect(
            ScenarioNeeds(needing.transcript).numbering?.description
                == "step 7 pulls from a cursor above the 2 seqs the case could have stamped before it: \"99\"")
    }

    @Test("every case of the shared corpus is ready with the built-in setup")
    func everyCaseReady() throws {
        for path in SharedCorpus.transcriptPaths {
            let loaded = try LoadedTranscript(raw: try SharedCorpus.bytes(path), file: path)
            guard case .ready = Scenarios.builtIn.setup(for: loaded) else {
                Issue.record("\(loaded.transcript.caseID) is not ready")
                continue
            }
        }
    }

    @Test("a case whose setup names another transcript version, or meets only part of its needs, is missing with the reason")
    func missingSetupNamed() throws {
        let loaded = try Self.loaded("fencing/001-late-commit-delivered")
        var partial = Scenarios()
        partial.cases["fencing/001-late-commit-delivered"] = Scenarios.Scenario(nextSeq: SequenceNumber(5), history: [], held: [])
        guard case .missing(let reason) = partial.setup(for: loaded) else {
            Issue.record("a setup without the held transaction is not enough")
            return
        }
        #expect(
            reason.hasPrefix(
                "the case needs setup it states only in prose: a transaction held open (step 3 answers a cursor with a hole, \"6~5\")"))
        #expect(reason.hasSuffix("give it with --scenarios FILE (docs/server-contract.md, \"Scenario setup\")"))

        var edited = loaded
        edited.json = loaded.json.replacing(at: JSONPointer(tokens: ["title"]), with: .string("another version"))
        guard case .missing(let other) = Scenarios.builtIn.setup(for: edited) else {
            Issue.record("the built-in setup applies only to the transcript it was read from")
            return
        }
        #expect(
            other.contains(
                "the setup given for fencing/001-late-commit-delivered was written for another version of its transcript (sha256 62147ba97f06…"
            ))
    }

    @Test("a scenarios file names a malformed transcript_sha256 at its pointer")
    func malformedDigest() throws {
        let text = #"{"cases": {"a/1": {"transcript_sha256": "ABC"}}}"#
        #expect(throws: CorpusError.self) { try Scenarios(json: try JSONParser.parse(Array(text.utf8)), file: "s.json") }
        do {
            _ = try Scenarios(json: try JSONParser.parse(Array(text.utf8)), file: "s.json")
        } catch let error as CorpusError {
            #expect("\(error)".contains("/cases/a~11/transcript_sha256"), "\(error)")
        }
    }
}
