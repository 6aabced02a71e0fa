import Corpus
import JSON
import KizunaWire
import ReferenceServer
import ServerContract
import Testing

/// Identities and request builders shared by the unit tests.
enum Fixture {
    static let userA = "00000000-0000-4000-8000-a10000000001"
    static let userB = "00000000-0000-4000-8000-a10000000002"
    static let clientA = "00000000-0000-4000-8000-c10000000001"
    static let clientB = "00000000-0000-4000-8000-c10000000002"
    static let row1 = "00000000-0000-4000-8000-e10000000001"
    static let row2 = "00000000-0000-4000-8000-e10000000002"
    static let row3 = "00000000-0000-4000-8000-e10000000003"

    static let callerA = Identity(user: userA, session: clientA)
    static let callerB = Identity(user: userB, session: clientB)

    /// The n-th placeholder mutation id.
    static func mutation(_ n: Int) -> String { "00000000-0000-4000-8000-f1000000" + (n < 10 ? "000\(n)" : "00\(n)") }

    /// A server configuration over todos (and optionally more tables).
    static func config(
        todos: TableConfig = TableConfig(table: "todos", bucketColumn: "owner_id"), extra: [TableConfig] = [], minSchema: Int = 1,
        maxPullScan: Int? = nil
    ) -> ServerConfig {
        ServerConfig(synced: [todos] + extra, minSchemaVersion: minSchema, maxPullScan: maxPullScan)
    }

    /// A fresh in-memory server seeded with `config`.
    static func server(_ config: ServerConfig = config(), nextSeq: UInt64 = 1, history: [FixtureChange] = []) async throws
        -> ReferenceServer
    {
        let server = try ReferenceServer()
        try await server.seed(Seed(server: config, nextSeq: SequenceNumber(nextSeq), history: history))
        return server
    }

    /// Another actor's upsert of a todo owned by `owner`.
    static func upsert(_ pk: String, _ columns: JSONObject, table: String = "todos") -> FixtureChange {
        .upsert(table: table, pk: pk, columns: columns, actor: clientB, hlc: nil)
    }

    /// A todo's columns.
    static func todo(_ title: String, owner: String = userA) -> JSONObject {
        ["done": false, "owner_id": .string(owner), "title": .string(title)]
    }

    /// A pull body for the todos bucket of `owner`.
    static func pull(cursor: String, owner: String = userA, limit: Int? = nil, table: String = "todos", schema: Int = 1) -> JSONValue {
        var body: JSONObject = [
            "buckets": [["params": ["owner_id": .string(owner)], "table": .string(table)]], "cursor": .string(cursor),
            "schema_version": .number(JSONNumber(schema)),
        ]
        if let limit { body["limit"] = .number(JSONNumber(limit)) }
        return .object(body)
    }

    /// A push body.
    static func push(_ mutations: [JSONValue], atomic: Bool = false, schema: Int = 1) -> JSONValue {
        [
            "batch": ["atomic": .bool(atomic), "mutations": .array(mutations)], "last_mutation_id": nil,
            "schema_version": .number(JSONNumber(schema)),
        ]
    }

    /// One mutation's wire form.
    static func mutation(
        _ id: Int, _ op: String, _ pk: String, _ columns: JSONObject = JSONObject(), table: String = "todos",
        precondition: JSONObject? = nil, transforms: JSONObject? = nil, hlc: String? = nil
    ) -> JSONValue {
        var object: JSONObject = [
            "columns": .object(columns), "mutation_id": .string(mutation(id)), "op": .string(op), "pk": .string(pk),
            "table": .string(table),
        ]
        if let precondition { object["precondition"] = .object(precondition) }
        if let transforms { object["transforms"] = .object(transforms) }
        if let hlc { object["hlc"] = .string(hlc) }
        return .object(object)
    }
}

extension RPCReply {
    /// The verdicts array of a push reply.
    var verdicts: [JSONValue] { body["verdicts"]?.arrayValue ?? [] }
    /// The cursor of a pull reply.
    var cursor: String? { body["cursor"]?.stringValue }
    /// The pks of a pull reply's rows.
    var rowKeys: [String] { (body["rows"]?.arrayValue ?? []).compactMap { $0["pk"]?.stringValue } }
    /// The pks of a pull reply's tombstones.
    var tombstoneKeys: [String] { (body["tombstones"]?.arrayValue ?? []).compactMap { $0["pk"]?.stringValue } }
}

extension JSONValue {
    /// The verdict's reason, or "applied".
    var outcome: String? { self["verdict"]?.stringValue == "applied" ? "applied" : self["reason"]?.stringValue }
}
