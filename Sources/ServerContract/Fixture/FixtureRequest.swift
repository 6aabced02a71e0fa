import Corpus
import JSON
import KizunaWire

/// The bodies of the fixture endpoint (docs/server-contract.md), read strictly: unknown keys,
/// wrong types and bad values are refused with the JSON pointer of the offending value.
public enum FixtureRequest {
    /// The actor a history entry is attributed to when it names none.
    public static let defaultHistoryActor = "accord-fixture"

    /// Reads a seed body `{server, next_seq?, history?}`.
    /// - Returns: the seed.
    /// - Throws: `WireError` at the offending value.
    public static func seed(_ body: JSONValue) throws(WireError) -> Seed {
        var reader = try ObjectReader(body, at: .root, malformed: .json)
        let server = try serverConfig(try reader.required("server"))
        var nextSeq = SequenceNumber(1)
        if let text = try reader.optionalString("next_seq") {
            guard let seq = SequenceNumber(text), seq != .zero else {
                throw WireError(.json, at: JSONPointer(tokens: ["next_seq"]), "next_seq is a positive decimal string, found \"\(text)\"")
            }
            nextSeq = seq
        }
        var history: [FixtureChange] = []
        if let value = reader.optional("history") {
            guard let elements = value.arrayValue else { throw reader.typeError("history", "an array", value) }
            for (index, element) in elements.enumerated() {
                let at = JSONPointer(tokens: ["history", String(index)])
                history.append(try change(element, at: at, defaultActor: defaultHistoryActor, allowTransaction: false).change)
            }
        }
        try reader.finish()
        return Seed(server: server, nextSeq: nextSeq, history: history)
    }

    /// Reads a step body `{n}` with `n` ≥ 0.
    /// - Returns: the step number.
    /// - Throws: `WireError` at the offending value.
    public static func step(_ body: JSONValue) throws(WireError) -> Int {
        var reader = try ObjectReader(body, at: .root, malformed: .json)
        let step = try reader.integer("n")
        if step < 0 { throw WireError(.json, at: JSONPointer(tokens: ["n"]), "n is at least 0, found \(step)") }
        try reader.finish()
        return step
    }

    /// Reads a change body `{op, table, pk, columns?, actor, hlc?, txn?}`.
    /// - Returns: the change and the held transaction's name, if any.
    /// - Throws: `WireError` at the offending value.
    public static func change(_ body: JSONValue) throws(WireError) -> (change: FixtureChange, transaction: String?) {
        try change(body, at: .root, defaultActor: nil, allowTransaction: true)
    }

    /// Reads a commit body `{txn}`.
    /// - Returns: the transaction's name.
    /// - Throws: `WireError` at the offending value.
    public static func commit(_ body: JSONValue) throws(WireError) -> String {
        var reader = try ObjectReader(body, at: .root, malformed: .json)
        let transaction = try reader.string("txn")
        if transaction.isEmpty { throw WireError(.json, at: JSONPointer(tokens: ["txn"]), "txn is never empty") }
        try reader.finish()
        return transaction
    }

    private static func change(
        _ value: JSONValue, at pointer: JSONPointer, defaultActor: String?, allowTransaction: Bool
    ) throws(WireError) -> (change: FixtureChange, transaction: String?) {
        var reader = try ObjectReader(value, at: pointer, malformed: .json)
        let op = try reader.string("op")
        let change: FixtureChange
        switch op {
        case "upsert":
            let table = try reader.name("table")
            let pk = try reader.rowKey("pk")
            let columns = try reader.columns("columns")
            let actor = try actor(&reader, defaultActor)
            change = .upsert(table: table, pk: pk, columns: columns, actor: actor, hlc: try reader.optionalString("hlc"))
        case "delete":
            change = .delete(table: try reader.name("table"), pk: try reader.rowKey("pk"), actor: try actor(&reader, defaultActor))
        case "reap":
            change = .reap
        default:
            throw WireError(.json, at: pointer.appending("op"), "expected upsert|delete|reap, found \"\(op)\"")
        }
        var transaction: String?
        if allowTransaction, let name = try reader.optionalString("txn", allowNull: true) {
            if name.isEmpty { throw WireError(.json, at: pointer.appending("txn"), "txn is never empty") }
            transaction = name
        }
        try reader.finish()
        return (change, transaction)
    }

    private static func actor(_ reader: inout ObjectReader, _ defaultActor: String?) throws(WireError) -> String {
        if let defaultActor { return try reader.optionalString("actor") ?? defaultActor }
        return try reader.string("actor")
    }

    /// Reads `context.server` through the corpus's own strict reader, wrapped in a one-step transcript.
    private static func serverConfig(_ value: JSONValue) throws(WireError) -> ServerConfig {
        let wrapper: JSONValue = [
            "case": "pull/000-fixture-seed", "cites": [], "status": "decided", "priority": "P0", "fencing": "shared",
            "title": "fixture seed",
            "context": ["client_id": "fixture", "user_id": "fixture", "schema_version": 1, "server": value],
            "steps": [["n": 1, "kind": "server", "op": "reap"]], "postconditions": [],
        ]
        do throws(CorpusError) {
            return try Transcript(json: wrapper, file: "seed").context.server
        } catch {
            var tokens = error.pointer?.tokens ?? []
            if tokens.starts(with: ["context", "server"]) { tokens.removeFirst(2) }
            throw WireError(.json, at: JSONPointer(tokens: ["server"] + tokens), error.detail)
        }
    }
}
