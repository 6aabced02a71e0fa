/// The context a transcript runs in: identities, schema version and server configuration.
public struct CaseContext: Sendable, Hashable {
    /// The client under test.
    public var clientID: String
    /// The user under test.
    public var userID: String
    /// The client's schema version.
    public var schemaVersion: Int
    /// Prose notes.
    public var notes: [String]
    /// The server configuration.
    public var server: ServerConfig
}

/// The server configuration a case declares.
public struct ServerConfig: Sendable, Hashable {
    /// The minimum schema version; below it the server signals RESET_REQUIRED.
    public var minSchemaVersion: Int
    /// Synced tables by name, in declaration order.
    public var tables: [TableConfig]
    /// Tombstone retention in days.
    public var tombstoneTTLDays: Int
    /// The pull scan cap; nil means the default 5000.
    public var maxPullScan: Int?
}

/// One synced table's configuration.
public struct TableConfig: Sendable, Hashable {
    /// The table name.
    public var name: String
    /// The bucket (owner) column.
    public var bucketColumn: String
    /// "arrival" (default) or "hlc".
    public var conflictMode: String?
    /// Whether same-column overwrites ride pull as conflicts.
    public var conflictJournal: Bool?
    /// Key columns in primary-key order; nil means ["id"].
    public var keyColumns: [String]?
    /// The soft-delete marker column, when hard deletes are refused.
    public var softDeleteColumn: String?
}
