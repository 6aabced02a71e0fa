import JSON

/// The server configuration a recording implies, since a recording's header carries none: the
/// tables its requests name, each table's bucket column (from pull bucket params; else the
/// insert column holding the caller's user id; else `owner_id`), composite key columns (from an
/// insert whose columns spell an array pk), conflict mode `hlc` for a table whose mutations carry
/// an `hlc`, a conflict journal for a table whose pull answers carry `conflicts`, and a minimum
/// schema version just above the highest one answered with RESET_REQUIRED. Soft-delete columns,
/// tombstone retention and the scan cap cannot be seen on the wire and stay at their defaults.
/// It reads exchanges one at a time (`observe`), so a recording can be streamed through it.
public struct ServerInference: Sendable {
    /// The default bucket column when nothing on the wire names one.
    public static let defaultBucketColumn = "owner_id"

    private var order: [String] = []
    private var buckets: [String: String] = [:]
    private var owners: [String: String] = [:]
    private var keys: [String: [String]] = [:]
    private var resetBelow = 0
    private var hlcTables = Set<String>()
    private var journaled = Set<String>()

    /// Starts with nothing seen.
    public init() {}

    /// Infers a configuration from exchanges.
    /// - Parameter exchanges: the recorded exchanges, in order.
    /// - Returns: the configuration, tables in order of first mention.
    public static func config(from exchanges: [RecordedExchange]) -> ServerConfig {
        var inference = ServerInference()
        for exchange in exchanges { inference.observe(exchange) }
        return inference.config
    }

    /// Takes what one exchange shows of the configuration.
    public mutating func observe(_ exchange: RecordedExchange) {
        if exchange.response["signal"]?["type"] == "RESET_REQUIRED",
            let version = exchange.request["schema_version"]?.numberValue?.intValue
        {
            resetBelow = max(resetBelow, version + 1)
        }
        switch exchange.rpc {
        case "pull":
            for bucket in exchange.request["buckets"]?.arrayValue ?? [] {
                guard let table = bucket["table"]?.stringValue else { continue }
                mention(table)
                if buckets[table] == nil, let column = bucket["params"]?.objectValue?.keys.first { buckets[table] = column }
            }
            for conflict in exchange.response["conflicts"]?.arrayValue ?? [] {
                if let table = conflict["table"]?.stringValue { journaled.insert(table) }
            }
        case "push":
            for mutation in exchange.request["batch"]?["mutations"]?.arrayValue ?? [] {
                guard let table = mutation["table"]?.stringValue else { continue }
                mention(table)
                if mutation["hlc"]?.stringValue != nil { hlcTables.insert(table) }
                let columns = mutation["columns"]?.objectValue ?? JSONObject()
                if owners[table] == nil, let user = exchange.user,
                    let owner = columns.members.first(where: { $0.value == .string(user) })?.key
                {
                    owners[table] = owner
                }
                if keys[table] == nil, mutation["op"] == "insert", let pk = mutation["pk"]?.stringValue,
                    let named = Self.keyColumns(pk: pk, columns: columns)
                {
                    keys[table] = named
                }
            }
        default:
            break
        }
    }

    private mutating func mention(_ table: String) { if !order.contains(table) { order.append(table) } }

    /// The configuration of what was seen so far, tables in order of first mention.
    public var config: ServerConfig {
        let tables = order.map { name in
            TableConfig(
                table: name, bucketColumn: buckets[name] ?? owners[name] ?? Self.defaultBucketColumn,
                conflictMode: hlcTables.contains(name) ? "hlc" : nil, conflictJournal: journaled.contains(name) ? true : nil,
                keyColumns: keys[name])
        }
        return ServerConfig(synced: tables, minSchemaVersion: max(1, resetBelow))
    }

    /// The key columns an insert spells: for a pk that is a JSON array of texts, the columns
    /// whose values print as each part, in order; nil for a plain pk or when a part matches no
    /// column.
    /// - Parameters:
    ///   - pk: the row key text.
    ///   - columns: the insert's columns.
    /// - Returns: the key column names, or nil.
    static func keyColumns(pk: String, columns: JSONObject) -> [String]? {
        guard pk.hasPrefix("["), let parsed = try? JSONParser.parse(pk), let parts = parsed.arrayValue, parts.count > 1 else { return nil }
        var used = Set<String>()
        var names: [String] = []
        let sorted = columns.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for part in parts {
            guard let text = part.stringValue,
                let column = sorted.first(where: { !used.contains($0.key) && printed($0.value) == text })
            else { return nil }
            used.insert(column.key)
            names.append(column.key)
        }
        return names
    }

    private static func printed(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        default: nil
        }
    }

    /// A configuration as a transcript's `context.server` object.
    /// - Returns: the JSON object.
    public static func json(_ config: ServerConfig) -> JSONValue {
        var tables = JSONObject()
        for table in config.tables {
            var entry: JSONObject = ["bucket_column": .string(table.bucketColumn)]
            if let mode = table.conflictMode { entry["conflict_mode"] = .string(mode) }
            if let journal = table.conflictJournal { entry["conflict_journal"] = .bool(journal) }
            if let keys = table.keyColumns { entry["key_columns"] = .array(keys.map { .string($0) }) }
            if let column = table.softDeleteColumn { entry["soft_delete_column"] = .string(column) }
            tables[table.name] = .object(entry)
        }
        var server: JSONObject = [
            "min_schema_version": .number(JSONNumber(config.minSchemaVersion)), "tables": .object(tables),
            "tombstone_ttl_days": .number(JSONNumber(config.tombstoneTTLDays)),
        ]
        if let cap = config.maxPullScan { server["max_pull_scan"] = .number(JSONNumber(cap)) }
        return .object(server)
    }
}
