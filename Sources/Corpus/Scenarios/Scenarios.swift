import JSON
import KizunaWire

/// Per-case setup that transcripts state only in prose: the first seq, history before step 1,
/// and server steps held in an open transaction. Accord ships its own for upstream's KizunaSync
/// corpus (`Scenarios.builtIn`), used unless `--scenarios FILE` gives more (format in
/// docs/server-contract.md). A case may name the transcript it was written for by digest
/// (`transcript_sha256`); on another version of that transcript the setup does not apply.
public struct Scenarios: Sendable, Hashable {
    /// One case's setup.
    public struct Scenario: Sendable, Hashable {
        /// The first seq the server stamps; nil means "1".
        public var nextSeq: SequenceNumber?
        /// Changes applied before step 1, in order, by another actor.
        public var history: [HistoryChange]
        /// Server steps whose transaction stays open until after another step.
        public var held: [HeldStep]

        /// Makes a setup.
        public init(nextSeq: SequenceNumber?, history: [HistoryChange], held: [HeldStep]) {
            self.nextSeq = nextSeq
            self.history = history
            self.held = held
        }

        /// No setup: seq from 1, no history, nothing held.
        public static let none = Scenario(nextSeq: nil, history: [], held: [])
    }

    /// A change before step 1.
    public enum HistoryChange: Sendable, Hashable {
        /// An upsert of `columns`.
        case upsert(table: String, pk: String, columns: JSONObject)
        /// A hard delete.
        case delete(table: String, pk: String)
        /// The tombstone reaper runs.
        case reap
    }

    /// A server step applied inside a named transaction, committed after another step.
    public struct HeldStep: Sendable, Hashable {
        /// The server step `n` whose change is held.
        public var step: Int
        /// The transaction's name.
        public var transaction: String
        /// The step after which the transaction commits.
        public var commitAfterStep: Int

        /// Makes a held step (`accord explore` holds its own).
        public init(step: Int, transaction: String, commitAfterStep: Int) {
            self.step = step
            self.transaction = transaction
            self.commitAfterStep = commitAfterStep
        }
    }

    /// A case's setup as a lane should play it.
    public enum Setup: Sendable, Hashable {
        /// Play with this setup (`.none` when the case needs none).
        case ready(Scenario)
        /// The case needs setup these scenarios do not have: not applicable, with the reason.
        case missing(String)
    }

    /// Setups by case id.
    public var cases: [String: Scenario]
    /// Per case, the digest (`TranscriptDigest`) of the transcript its setup was written for;
    /// a case not here applies to any transcript with its id.
    public var writtenFor: [String: String]

    /// No setups at all.
    public init() {
        cases = [:]
        writtenFor = [:]
    }

    /// The setup of a case by id alone; `.none` when the file does not list it.
    /// - Returns: the setup.
    public func scenario(for caseID: String) -> Scenario { cases[caseID] ?? .none }

    /// The setup of a loaded case: the listed one when it was written for this transcript, and
    /// `.missing` when the golden needs setup (`ScenarioNeeds`) that nothing here meets.
    public func setup(for loaded: LoadedTranscript) -> Setup {
        let caseID = loaded.transcript.caseID
        var scenario = Scenario.none
        var otherVersion: String?
        if let listed = cases[caseID] {
            let digest = TranscriptDigest.of(loaded.json)
            if let expected = writtenFor[caseID], expected != digest {
                otherVersion =
                    "the setup given for \(caseID) was written for another version of its transcript (sha256 \(expected.prefix(12))…, this one \(digest.prefix(12))…)"
            } else {
                scenario = listed
            }
        }
        let unmet = ScenarioNeeds(loaded.transcript).unmet(by: scenario)
        guard !unmet.isEmpty else { return .ready(scenario) }
        var reason = "the case needs setup it states only in prose: " + unmet.joined(separator: "; ")
        if let otherVersion { reason += "; " + otherVersion }
        reason += "; give it with --scenarios FILE (docs/server-contract.md, \"Scenario setup\")"
        return .missing(reason)
    }

    /// Adds `other`'s cases, which replace this one's for the same id.
    public mutating func merge(_ other: Scenarios) {
        for (caseID, scenario) in other.cases {
            cases[caseID] = scenario
            writtenFor[caseID] = other.writtenFor[caseID]
        }
    }

    /// Reads a scenarios file strictly.
    /// - Parameters:
    ///   - json: the parsed file.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming the file and pointer.
    public init(json: JSONValue, file: String) throws(CorpusError) {
        do throws(WireError) {
            var reader = try ObjectReader(json, at: .root, malformed: .json)
            _ = reader.optional("_about")
            let casesPointer = JSONPointer(tokens: ["cases"])
            var cases: [String: Scenario] = [:]
            var writtenFor: [String: String] = [:]
            for member in try ObjectReader(try reader.required("cases"), at: casesPointer, malformed: .json).object.members {
                let (scenario, digest) = try Self.scenario(member.value, at: casesPointer.appending(member.key))
                cases[member.key] = scenario
                writtenFor[member.key] = digest
            }
            try reader.finish()
            self.cases = cases
            self.writtenFor = writtenFor
        } catch {
            throw CorpusError.grammar(file, at: error.pointer, error.detail)
        }
    }

    private static func scenario(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> (Scenario, String?) {
        var reader = try ObjectReader(value, at: pointer, malformed: .json)
        _ = reader.optional("about")
        let digest = try reader.optionalString("transcript_sha256")
        if let digest, digest.count != 64 || !digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
            throw WireError(
                .json, at: pointer.appending("transcript_sha256"), "transcript_sha256 is 64 lowercase hex digits, found \"\(digest)\"")
        }
        var nextSeq: SequenceNumber?
        if let text = try reader.optionalString("next_seq") {
            guard let seq = SequenceNumber(text), seq != .zero else {
                throw WireError(.json, at: pointer.appending("next_seq"), "next_seq is a positive decimal string, found \"\(text)\"")
            }
            nextSeq = seq
        }
        var history: [HistoryChange] = []
        for (index, element) in (reader.optional("history")?.arrayValue ?? []).enumerated() {
            history.append(try historyChange(element, at: pointer.appending("history").appending(index)))
        }
        var held: [HeldStep] = []
        for (index, element) in (reader.optional("held")?.arrayValue ?? []).enumerated() {
            var item = try ObjectReader(element, at: pointer.appending("held").appending(index), malformed: .json)
            held.append(
                HeldStep(
                    step: try item.integer("step"), transaction: try item.string("txn"),
                    commitAfterStep: try item.integer("commit_after_step")))
            try item.finish()
        }
        try reader.finish()
        return (Scenario(nextSeq: nextSeq, history: history, held: held), digest)
    }

    private static func historyChange(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> HistoryChange {
        var reader = try ObjectReader(value, at: pointer, malformed: .json)
        let op = try reader.string("op")
        let change: HistoryChange
        switch op {
        case "upsert":
            change = .upsert(table: try reader.name("table"), pk: try reader.rowKey("pk"), columns: try reader.columns("columns"))
        case "delete":
            change = .delete(table: try reader.name("table"), pk: try reader.rowKey("pk"))
        case "reap":
            change = .reap
        default:
            throw WireError(.json, at: pointer.appending("op"), "expected upsert|delete|reap, found \"\(op)\"")
        }
        try reader.finish()
        return change
    }
}
