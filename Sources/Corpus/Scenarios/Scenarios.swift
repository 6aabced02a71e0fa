import KizunaWire

/// Per-case setup that transcripts state only in prose: the first seq, history before step 1,
/// and server steps held in an open transaction (`--scenarios FILE`, format in
/// docs/server-contract.md; ../shared/corpus-scenarios.json is one).
public struct Scenarios: Sendable, Hashable {
    /// One case's setup.
    public struct Scenario: Sendable, Hashable {
        /// The first seq the server stamps; nil means "1".
        public var nextSeq: SequenceNumber?
        /// Changes applied before step 1, in order, by another actor.
        public var history: [HistoryChange]
        /// Server steps whose transaction stays open until after another step.
        public var held: [HeldStep]

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
    }

    /// Setups by case id.
    public var cases: [String: Scenario]

    /// No setups at all.
    public init() { cases = [:] }

    /// The setup of a case; `.none` when the file does not list it.
    /// - Parameter caseID: the case id.
    /// - Returns: the setup.
    public func scenario(for caseID: String) -> Scenario { cases[caseID] ?? .none }

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
            for member in try ObjectReader(try reader.required("cases"), at: casesPointer, malformed: .json).object.members {
                cases[member.key] = try Self.scenario(member.value, at: casesPointer.appending(member.key))
            }
            try reader.finish()
            self.cases = cases
        } catch {
            throw CorpusError.grammar(file, at: error.pointer, error.detail)
        }
    }

    private static func scenario(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> Scenario {
        var reader = try ObjectReader(value, at: pointer, malformed: .json)
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
        return Scenario(nextSeq: nextSeq, history: history, held: held)
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
