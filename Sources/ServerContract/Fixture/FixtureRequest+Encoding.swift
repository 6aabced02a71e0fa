import Corpus
import JSON

extension FixtureRequest {
    /// The body of a seed call, for a client of the fixture endpoint (the runner's HTTP target).
    /// - Returns: `{server, next_seq, history}`, which `seed(_:)` reads back to the same value.
    public static func body(seed: Seed) -> JSONValue {
        [
            "server": server(seed.server), "next_seq": .string(seed.nextSeq.text),
            "history": .array(seed.history.map { changeObject($0) }),
        ]
    }

    /// The body of a step call.
    /// - Returns: `{n}`.
    public static func body(step: Int) -> JSONValue { ["n": .number(JSONNumber(step))] }

    /// The body of a change call.
    /// - Parameters:
    ///   - change: the change.
    ///   - transaction: the held transaction's name, or nil.
    /// - Returns: `{op, table, pk, columns?, actor, hlc?, txn?}`.
    public static func body(change: FixtureChange, heldIn transaction: String?) -> JSONValue {
        var object = changeObject(change)
        if let transaction, case .object(var members) = object {
            members.append("txn", .string(transaction))
            object = .object(members)
        }
        return object
    }

    /// The body of a commit call.
    /// - Parameter transaction: the transaction's name.
    /// - Returns: `{txn}`.
    public static func body(commit transaction: String) -> JSONValue { ["txn": .string(transaction)] }

    /// The `TargetError` a fixture call's answer stands for, as docs/server-contract.md maps it.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - body: the response body.
    /// - Returns: nil for 204 (success), otherwise the error.
    public static func targetError(status: Int, body: [UInt8]) -> TargetError? {
        if status == 204 { return nil }
        let message = (try? JSONParser.parse(body))?["message"]?.stringValue ?? "HTTP \(status)"
        switch status {
        case 501: return .unsupported(message)
        case 503: return .unreachable(message)
        default: return .refused("HTTP \(status): \(message)")
        }
    }

    private static func changeObject(_ change: FixtureChange) -> JSONValue {
        switch change {
        case .upsert(let table, let pk, let columns, let actor, let hlc):
            var members: JSONObject = [
                "op": "upsert", "table": .string(table), "pk": .string(pk),
                "columns": .object(columns), "actor": .string(actor),
            ]
            if let hlc { members.append("hlc", .string(hlc)) }
            return .object(members)
        case .delete(let table, let pk, let actor):
            return ["op": "delete", "table": .string(table), "pk": .string(pk), "actor": .string(actor)]
        case .reap:
            return ["op": "reap"]
        }
    }

    private static func server(_ config: ServerConfig) -> JSONValue {
        var tables: JSONObject = [:]
        for table in config.tables {
            var members: JSONObject = ["bucket_column": .string(table.bucketColumn)]
            if let mode = table.conflictMode { members.append("conflict_mode", .string(mode)) }
            if let journal = table.conflictJournal { members.append("conflict_journal", .bool(journal)) }
            if let keys = table.keyColumns { members.append("key_columns", .array(keys.map { .string($0) })) }
            if let column = table.softDeleteColumn { members.append("soft_delete_column", .string(column)) }
            tables.append(table.name, .object(members))
        }
        var members: JSONObject = [
            "min_schema_version": .number(JSONNumber(config.minSchemaVersion)),
            "tombstone_ttl_days": .number(JSONNumber(config.tombstoneTTLDays)),
            "tables": .object(tables),
        ]
        if let cap = config.maxPullScan { members.append("max_pull_scan", .number(JSONNumber(cap))) }
        return .object(members)
    }
}
