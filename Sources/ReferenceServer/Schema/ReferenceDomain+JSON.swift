import JSON

extension ReferenceDomain {
    /// Reads a domain from JSON in the shape of the corpus's fixtures/domain.json:
    /// `{"tables": {<name>: {"bucket_column", "columns": {<column>: <type>}, "key_columns",
    /// "pull_only"?, "read_only_columns"?, "not_null_columns"?}}}`; other top-level keys
    /// (notes, cites) are ignored.
    /// - Parameter json: the parsed document.
    /// - Throws: `ReferenceServerError` naming the JSON pointer of the first bad value.
    public init(json: JSONValue) throws(ReferenceServerError) {
        guard case .object(let tablesObject)? = json["tables"] else {
            throw ReferenceServerError.config("/tables: expected an object of tables")
        }
        var tables: [ReferenceTable] = []
        for member in tablesObject.members {
            tables.append(try Self.table(member.key, member.value, at: "/tables/\(member.key)"))
        }
        self.init(tables: tables)
    }

    private static func table(_ name: String, _ value: JSONValue, at pointer: String) throws(ReferenceServerError) -> ReferenceTable {
        guard case .object(let object) = value else { throw ReferenceServerError.config("\(pointer): expected an object") }
        let known: Set<String> = ["bucket_column", "columns", "key_columns", "pull_only", "read_only_columns", "not_null_columns"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ReferenceServerError.config("\(pointer)/\(unknown): unknown key")
        }
        guard case .object(let columnsObject)? = object["columns"] else {
            throw ReferenceServerError.config("\(pointer)/columns: expected an object of column types")
        }
        var columns: [String: ColumnType] = [:]
        for column in columnsObject.members {
            guard let text = column.value.stringValue, let type = ColumnType(rawValue: text) else {
                let allowed = ColumnType.allCases.map(\.rawValue).joined(separator: "|")
                throw ReferenceServerError.config("\(pointer)/columns/\(column.key): expected one of \(allowed)")
            }
            columns[column.key] = type
        }
        let keys = try strings(object["key_columns"], at: "\(pointer)/key_columns") ?? ["id"]
        let bucket: String?
        switch object["bucket_column"] {
        case nil, .null?: bucket = nil
        case .string(let text)?: bucket = text
        default: throw ReferenceServerError.config("\(pointer)/bucket_column: expected a string or null")
        }
        for column in keys + (bucket.map { [$0] } ?? []) where columns[column] == nil {
            throw ReferenceServerError.config("\(pointer): column \"\(column)\" is not among the columns")
        }
        let pullOnly: Bool
        switch object["pull_only"] {
        case nil: pullOnly = false
        case .bool(let flag)?: pullOnly = flag
        default: throw ReferenceServerError.config("\(pointer)/pull_only: expected a boolean")
        }
        return ReferenceTable(
            name: name, columns: columns, keyColumns: keys, bucketColumn: bucket, pullOnly: pullOnly,
            readOnlyColumns: Set(try strings(object["read_only_columns"], at: "\(pointer)/read_only_columns") ?? []),
            notNullColumns: Set(try strings(object["not_null_columns"], at: "\(pointer)/not_null_columns") ?? []))
    }

    private static func strings(_ value: JSONValue?, at pointer: String) throws(ReferenceServerError) -> [String]? {
        guard let value else { return nil }
        guard case .array(let items) = value else { throw ReferenceServerError.config("\(pointer): expected an array of strings") }
        var strings: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw ReferenceServerError.config("\(pointer): expected an array of strings") }
            strings.append(text)
        }
        return strings
    }
}
