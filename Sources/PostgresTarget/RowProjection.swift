import JSON

/// Shows a SQL row as the corpus's abstract row (`TargetConfig.Rows.asWritten`): a SQL table
/// renders every column, the corpus a row's written columns. A null column is dropped, and so is
/// a key column no write of its table named (the corpus keys a row by `pk`, not by a column);
/// nothing that carries a value is ever dropped, so a column the server should not render still
/// shows. Applied to pull rows and to push `server_row`s.
struct RowProjection: Sendable {
    /// Key columns by table.
    var keyColumns: [String: [String]] = [:]
    /// The key columns that some write of the table named as a column.
    private var writtenKeys: [String: Set<String>] = [:]

    /// Notes the columns a write names.
    mutating func noteWrite(table: String, columns: some Sequence<String>) {
        let keys = Set(keyColumns[table] ?? [])
        writtenKeys[table, default: []].formUnion(columns.filter { keys.contains($0) })
    }

    /// Notes every mutation of a push request.
    mutating func noteWrites(ofPush body: JSONValue) {
        for mutation in body["batch"]?["mutations"]?.arrayValue ?? [] {
            guard let table = mutation["table"]?.stringValue else { continue }
            noteWrite(table: table, columns: mutation["columns"]?.objectValue?.keys ?? [])
        }
    }

    /// A pull answer with every row projected.
    func projectPull(_ body: JSONValue) -> JSONValue {
        guard let rows = body["rows"]?.arrayValue else { return body }
        let projected: [JSONValue] = rows.map { entry in
            guard let table = entry["table"]?.stringValue, let row = entry["row"]?.objectValue else { return entry }
            return entry.replacing(at: JSONPointer(tokens: ["row"]), with: .object(project(row, table: table)))
        }
        return body.replacing(at: JSONPointer(tokens: ["rows"]), with: .array(projected))
    }

    /// A push answer with every `server_row` projected; the request names each mutation's table.
    func projectPush(_ body: JSONValue, request: JSONValue) -> JSONValue {
        var tables: [String: String] = [:]
        for mutation in request["batch"]?["mutations"]?.arrayValue ?? [] {
            if let id = mutation["mutation_id"]?.stringValue, let table = mutation["table"]?.stringValue { tables[id] = table }
        }
        var result = body
        if let verdicts = body["verdicts"]?.arrayValue {
            let projected: [JSONValue] = verdicts.map { verdict in
                guard let id = verdict["mutation_id"]?.stringValue, let table = tables[id], let row = verdict["server_row"]?.objectValue
                else { return verdict }
                return verdict.replacing(at: JSONPointer(tokens: ["server_row"]), with: .object(project(row, table: table)))
            }
            result = result.replacing(at: JSONPointer(tokens: ["verdicts"]), with: .array(projected))
        }
        if let id = body["batch"]?["offender_mutation_id"]?.stringValue, let table = tables[id],
            let row = body["batch"]?["server_row"]?.objectValue
        {
            result = result.replacing(at: JSONPointer(tokens: ["batch", "server_row"]), with: .object(project(row, table: table)))
        }
        return result
    }

    func project(_ row: JSONObject, table: String) -> JSONObject {
        let keys = Set(keyColumns[table] ?? [])
        let written = writtenKeys[table] ?? []
        return JSONObject(row.members.filter { !$0.value.isNull && (!keys.contains($0.key) || written.contains($0.key)) })
    }
}
