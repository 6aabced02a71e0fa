import Corpus
import ServerContract

/// A table as one case syncs it: the domain's schema plus the case's conflict, journal and
/// soft-delete settings.
struct SyncedTable: Sendable {
    var schema: ReferenceTable
    /// False for a table the domain does not describe: any column and value is accepted.
    var typed: Bool
    var hlcMode: Bool
    var journal: Bool
    var softDeleteColumn: String?

    var name: String { schema.name }
    var bucketColumn: String? { schema.bucketColumn }
    var conflictModeName: String { hlcMode ? "hlc" : "arrival" }

    init(config: TableConfig, domain: ReferenceDomain) {
        if var known = domain.tables[config.name] {
            known.bucketColumn = config.bucketColumn
            if let keys = config.keyColumns { known.keyColumns = keys }
            schema = known
            typed = true
        } else {
            schema = ReferenceTable(
                name: config.name, columns: [:], keyColumns: config.keyColumns ?? ["id"], bucketColumn: config.bucketColumn)
            typed = false
        }
        hlcMode = config.conflictMode == "hlc"
        journal = config.conflictJournal ?? false
        softDeleteColumn = config.softDeleteColumn
    }

    init(schema: ReferenceTable) {
        self.schema = schema
        typed = true
        hlcMode = false
        journal = false
        softDeleteColumn = nil
    }

    /// The type of a column, or nil when the table has no such column (untyped tables accept any).
    func type(of column: String) -> ColumnType? { schema.columns[column] }

    /// True when the table has the column.
    func hasColumn(_ column: String) -> Bool { !typed || schema.columns[column] != nil }
}

/// The configuration a server runs with: the synced tables and the server limits.
struct EffectiveConfig: Sendable {
    var tables: [String: SyncedTable]
    var minSchemaVersion: Int
    var maxPullScan: Int
    var maxAtomicBatch: Int
    /// Whether a write that changes nothing takes a seq (`TargetCapabilities.NoOpWrites`).
    var noOpWrites = TargetCapabilities.NoOpWrites.stamped

    static let defaultPullLimit = 500
    static let defaultScanCap = 5000

    /// Every domain table, arrival mode, schema version 1.
    init(domain: ReferenceDomain) {
        var tables: [String: SyncedTable] = [:]
        for (name, table) in domain.tables { tables[name] = SyncedTable(schema: table) }
        self.tables = tables
        minSchemaVersion = 1
        maxPullScan = Self.defaultScanCap
        maxAtomicBatch = 500
    }

    /// The tables and limits a case declares.
    init(server: ServerConfig, domain: ReferenceDomain) {
        var tables: [String: SyncedTable] = [:]
        for config in server.tables { tables[config.name] = SyncedTable(config: config, domain: domain) }
        self.tables = tables
        minSchemaVersion = server.minSchemaVersion
        maxPullScan = server.maxPullScan ?? Self.defaultScanCap
        maxAtomicBatch = 500
    }
}
