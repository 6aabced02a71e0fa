/// One table the reference server serves: its columns and types, key and bucket columns, and
/// the write policy the corpus domain implies.
public struct ReferenceTable: Sendable, Hashable {
    /// The table name.
    public var name: String
    /// Columns and their types; a write naming another column is COLUMN_DENIED.
    public var columns: [String: ColumnType]
    /// Key columns in primary-key order.
    public var keyColumns: [String]
    /// The bucket (owner) column: a row is visible to the user it names; nil for an unbucketed table.
    public var bucketColumn: String?
    /// True when devices only read the table (a push to it is refused with KZP01).
    public var pullOnly: Bool
    /// Columns a device may not write (COLUMN_DENIED); key columns are never updatable.
    public var readOnlyColumns: Set<String>
    /// Columns that refuse null (a NOT NULL violation is a CONSTRAINT verdict).
    public var notNullColumns: Set<String>

    /// Makes a table.
    /// - Parameters:
    ///   - name: the name.
    ///   - columns: columns and types.
    ///   - keyColumns: key columns in order.
    ///   - bucketColumn: the bucket column, or nil.
    ///   - pullOnly: whether pushes are refused.
    ///   - readOnlyColumns: columns devices may not write.
    ///   - notNullColumns: columns that refuse null.
    public init(
        name: String, columns: [String: ColumnType], keyColumns: [String], bucketColumn: String?, pullOnly: Bool = false,
        readOnlyColumns: Set<String> = [], notNullColumns: Set<String> = []
    ) {
        self.name = name
        self.columns = columns
        self.keyColumns = keyColumns
        self.bucketColumn = bucketColumn
        self.pullOnly = pullOnly
        self.readOnlyColumns = readOnlyColumns
        self.notNullColumns = notNullColumns
    }
}
