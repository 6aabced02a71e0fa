import JSON
import KizunaWire
import ServerContract

/// What the Postgres target needs to know about a database beyond the pack itself: the schema the
/// RPCs live in, the role a request runs as, the synced tables it may empty at every seed (with
/// their key columns and sync mode), how rows are rendered for comparison, and how the server
/// numbers. `--postgres-config FILE` reads one; `corpus` is the one for Accord's corpus domain
/// (`accord postgres-init`). docs/postgres.md documents the file.
public struct TargetConfig: Sendable, Hashable {
    /// A synced table.
    public struct Table: Sendable, Hashable {
        /// The table's name in the `public` schema (where the pack reads user tables).
        public var name: String
        /// Its primary-key columns, in order (the pack's `_config.key_columns`).
        public var keyColumns: [String]
        /// "read-write" or "pull-only" (the pack's `_config.sync_mode`).
        public var syncMode: String
    }

    /// How live rows are shown to the comparison.
    public enum Rows: String, Sendable, Hashable {
        /// As the corpus's abstract rows are: the columns a write of the case gave a value. A SQL
        /// table renders every column; the target drops the null ones and the key columns no
        /// write of that table named, so a row compares like for like. A column rendered with a
        /// value is never dropped.
        case asWritten = "as-written"
        /// As the server renders them (for recordings of a real service).
        case asRendered = "as-rendered"
    }

    /// The schema of `pull` and `push` (the `Content-Profile` of a PostgREST request).
    public var schema: String
    /// The role a request runs as (`set local role`).
    public var role: String
    /// The synced tables, emptied at every seed.
    public var tables: [Table]
    /// How rows are rendered for comparison.
    public var rows: Rows
    /// Whether every write takes the next seq (the pack: gapped, a write changing nothing takes none).
    public var numbering: TargetCapabilities.Numbering
    /// When writes take their seqs (the pack: at commit).
    public var seqs: TargetCapabilities.SeqStamping
    /// Whether a write that changes nothing takes a seq (the pack: unstamped).
    public var noOpWrites = TargetCapabilities.NoOpWrites.unstamped

    /// Accord's corpus domain, as `accord postgres-init` creates it. Its numbering is `gapped`:
    /// the pack stamps no seq for a write that changes no column (its capture trigger returns
    /// early, 0001_kizuna_init.sql at 05bc51f1: "An update that changes no column is not a change
    /// to replicate"), so a write does not always take the next seq; `accord explore` found the
    /// dense check blaming the pack for it (issue 39).
    public static let corpus = TargetConfig(
        schema: "kizunasync", role: "authenticated",
        tables: [
            Table(name: "todos", keyColumns: ["id"], syncMode: "read-write"),
            Table(name: "notices", keyColumns: ["id"], syncMode: "pull-only"),
            Table(name: "seats", keyColumns: ["hall", "seat"], syncMode: "read-write"),
            Table(name: "tags", keyColumns: ["id"], syncMode: "read-write"),
            Table(name: "checklist", keyColumns: ["id"], syncMode: "read-write"),
        ], rows: .asWritten, numbering: .gapped, seqs: .atCommit)

    /// Makes a configuration.
    /// - Parameters:
    ///   - schema: the RPC schema.
    ///   - role: the request role.
    ///   - tables: the synced tables.
    ///   - rows: how rows are rendered.
    ///   - numbering: the server's numbering.
    ///   - seqs: when writes take their seqs.
    public init(
        schema: String, role: String, tables: [Table], rows: Rows, numbering: TargetCapabilities.Numbering,
        seqs: TargetCapabilities.SeqStamping
    ) {
        self.schema = schema
        self.role = role
        self.tables = tables
        self.rows = rows
        self.numbering = numbering
        self.seqs = seqs
    }

    /// Reads a configuration file strictly: `{"schema"?, "role"?, "rows"?, "numbering"?, "seqs"?, "no_op_writes"?, "tables":
    /// {<name>: {"key_columns"?, "sync_mode"?}}}`.
    /// - Parameters:
    ///   - json: the parsed file.
    ///   - file: its path, for errors.
    /// - Throws: `PostgresError` naming the file and JSON pointer of the first bad value.
    public init(json: JSONValue, file: String) throws(PostgresError) {
        do throws(WireError) {
            var reader = try ObjectReader(json, at: .root, malformed: .json)
            let schema = try reader.optionalString("schema") ?? "kizunasync"
            let role = try reader.optionalString("role") ?? "authenticated"
            let rowsText = try reader.optionalString("rows") ?? Rows.asWritten.rawValue
            let numberingText = try reader.optionalString("numbering") ?? TargetCapabilities.Numbering.gapped.rawValue
            let seqsText = try reader.optionalString("seqs") ?? TargetCapabilities.SeqStamping.atCommit.rawValue
            let noOpText = try reader.optionalString("no_op_writes") ?? TargetCapabilities.NoOpWrites.unstamped.rawValue
            guard case .object(let tablesObject) = try reader.required("tables") else {
                throw WireError(.json, at: JSONPointer(tokens: ["tables"]), "expected an object of tables")
            }
            try reader.finish()
            for (name, pointer) in [(schema, "schema"), (role, "role")] where !Self.isName(name) {
                throw WireError(.json, at: JSONPointer(tokens: [pointer]), "expected a lowercase SQL name, found \"\(name)\"")
            }
            guard let rows = Rows(rawValue: rowsText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["rows"]), "expected as-written|as-rendered, found \"\(rowsText)\"")
            }
            guard let numbering = TargetCapabilities.Numbering(rawValue: numberingText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["numbering"]), "expected dense|gapped, found \"\(numberingText)\"")
            }
            guard let seqs = TargetCapabilities.SeqStamping(rawValue: seqsText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["seqs"]), "expected at-write|at-commit, found \"\(seqsText)\"")
            }
            guard let noOpWrites = TargetCapabilities.NoOpWrites(rawValue: noOpText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["no_op_writes"]), "expected stamped|unstamped, found \"\(noOpText)\"")
            }
            var tables: [Table] = []
            for member in tablesObject.members {
                let at = JSONPointer(tokens: ["tables", member.key])
                guard Self.isName(member.key) else { throw WireError(.json, at: at, "expected a lowercase SQL table name") }
                var table = try ObjectReader(member.value, at: at, malformed: .json)
                let keys = try table.optional("key_columns").map { value throws(WireError) -> [String] in
                    guard let items = value.arrayValue, !items.isEmpty,
                        case let names = items.compactMap(\.stringValue), names.count == items.count, names.allSatisfy(Self.isName)
                    else { throw WireError(.json, at: at.appending("key_columns"), "expected a non-empty array of column names") }
                    return names
                }
                let mode = try table.optionalString("sync_mode") ?? "read-write"
                guard ["read-write", "pull-only"].contains(mode) else {
                    throw WireError(.json, at: at.appending("sync_mode"), "expected read-write|pull-only, found \"\(mode)\"")
                }
                try table.finish()
                tables.append(Table(name: member.key, keyColumns: keys ?? ["id"], syncMode: mode))
            }
            self.init(schema: schema, role: role, tables: tables, rows: rows, numbering: numbering, seqs: seqs)
            self.noOpWrites = noOpWrites
        } catch {
            throw .config("\(file): \(error)")
        }
    }

    /// The table called `name`, if the configuration lists it.
    func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// A lowercase SQL name: `[a-z_][a-z0-9_]*`, at most 63 bytes.
    static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= 63, first == UInt8(ascii: "_") || (first >= 0x61 && first <= 0x7A)
        else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
