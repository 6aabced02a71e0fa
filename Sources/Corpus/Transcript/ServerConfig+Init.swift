extension ServerConfig {
    /// Makes a server configuration in code (tests, embedded servers), as a transcript's
    /// `context.server` would declare it.
    /// - Parameters:
    ///   - tables: the synced tables, in declaration order.
    ///   - minSchemaVersion: the minimum schema version.
    ///   - tombstoneTTLDays: tombstone retention in days.
    ///   - maxPullScan: the pull scan cap; nil means the default 5000.
    public init(synced tables: [TableConfig], minSchemaVersion: Int = 1, tombstoneTTLDays: Int = 30, maxPullScan: Int? = nil) {
        self.minSchemaVersion = minSchemaVersion
        self.tables = tables
        self.tombstoneTTLDays = tombstoneTTLDays
        self.maxPullScan = maxPullScan
    }
}

extension TableConfig {
    /// Makes one table's configuration in code.
    /// - Parameters:
    ///   - name: the table name.
    ///   - bucketColumn: the bucket (owner) column.
    ///   - conflictMode: "arrival" (nil: the default) or "hlc".
    ///   - conflictJournal: whether same-column overwrites ride pull as conflicts.
    ///   - keyColumns: key columns in primary-key order; nil means ["id"].
    ///   - softDeleteColumn: the soft-delete marker column.
    public init(
        table name: String, bucketColumn: String, conflictMode: String? = nil, conflictJournal: Bool? = nil, keyColumns: [String]? = nil,
        softDeleteColumn: String? = nil
    ) {
        self.name = name
        self.bucketColumn = bucketColumn
        self.conflictMode = conflictMode
        self.conflictJournal = conflictJournal
        self.keyColumns = keyColumns
        self.softDeleteColumn = softDeleteColumn
    }
}
