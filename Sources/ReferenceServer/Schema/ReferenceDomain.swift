/// The tables a reference server knows, by name; a case's server configuration picks the ones
/// it syncs and adds its conflict and soft-delete settings.
public struct ReferenceDomain: Sendable, Hashable {
    /// Tables by name.
    public var tables: [String: ReferenceTable]

    /// Makes a domain.
    public init(tables: [ReferenceTable]) {
        var byName: [String: ReferenceTable] = [:]
        for table in tables { byName[table.name] = table }
        self.tables = byName
    }

    /// The corpus fixture domain (fixtures/domain.json): todos, notices (pull-only), seats and tags,
    /// every one owned through `owner_id`; plus Accord's own `checklist` table, where devices may
    /// not write `version` (server-maintained: COLUMN_DENIED) and `title` is NOT NULL
    /// (CONSTRAINT), which Accord's Conformance/ cases pin. Upstream's tables carry no such
    /// policy, so no upstream case can trip over one.
    public static let corpus = ReferenceDomain(tables: [
        ReferenceTable(
            name: "todos",
            columns: [
                "deleted_at": .timestamptz, "done": .boolean, "id": .uuid, "labels": .textArray, "likes": .integer,
                "owner_id": .uuid, "title": .text, "version": .integer,
            ], keyColumns: ["id"], bucketColumn: "owner_id"),
        ReferenceTable(
            name: "checklist",
            columns: ["done": .boolean, "id": .uuid, "owner_id": .uuid, "title": .text, "version": .integer], keyColumns: ["id"],
            bucketColumn: "owner_id", readOnlyColumns: ["version"], notNullColumns: ["title"]),
        ReferenceTable(
            name: "notices", columns: ["body": .text, "id": .bigint, "owner_id": .uuid], keyColumns: ["id"],
            bucketColumn: "owner_id", pullOnly: true),
        ReferenceTable(
            name: "seats", columns: ["hall": .bigint, "holder": .text, "owner_id": .uuid, "seat": .integer],
            keyColumns: ["hall", "seat"], bucketColumn: "owner_id"),
        ReferenceTable(
            name: "tags", columns: ["id": .uuid, "label": .text, "owner_id": .uuid], keyColumns: ["id"],
            bucketColumn: "owner_id"),
    ])
}
