import JSON
import KizunaWire

/// A stored row: the server-confirmed base, the locally visible body, and the no-resurrection shadow.
struct StoredRow {
    /// The server-confirmed row, nil when absent or deleted.
    var base: JSONObject?
    /// The visible row: the pending outbox entries replayed over `base`.
    var body: JSONObject?
    /// Entries queued at or before this outbox sequence never resurrect the row (set by a tombstone or a null server_row).
    var shadow: Int64?
}

extension ClientStore {
    /// The locally readable row, or nil when it is absent (never present, deleted or shadowed).
    /// - Returns: the row's columns, or nil.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the row cannot be read.
    public func row(table: String, pk: String) throws(ClientError) -> JSONObject? {
        try readRow(table: table, pk: pk).body
    }

    /// The server-confirmed base of a row, or nil when the server has it absent or deleted.
    /// - Returns: the base columns, or nil.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the row cannot be read.
    public func base(table: String, pk: String) throws(ClientError) -> JSONObject? {
        try readRow(table: table, pk: pk).base
    }

    /// Every locally readable row of a table, by key.
    /// - Returns: the rows by key.
    /// - Throws: `ClientError` with `UNKNOWN_TABLE` for a table outside the configuration, `STORE` or `JSON`.
    public func rows(table: String) throws(ClientError) -> [String: JSONObject] {
        guard tables[table] != nil else { throw ClientError(.unknownTable, "table \"\(table)\" is not in the configuration") }
        let raw = try db.query("SELECT pk, body FROM rows WHERE tbl = ? AND body IS NOT NULL", [.text(table)]) {
            ($0.text(0) ?? "", $0.text(1) ?? "{}")
        }
        var result: [String: JSONObject] = [:]
        for (pk, text) in raw { result[pk] = try Self.object(text) }
        return result
    }

    /// Whether a row carries the no-resurrection shadow.
    /// - Returns: true when the row is shadowed.
    /// - Throws: `ClientError` with `STORE` when the row cannot be read.
    public func isShadowed(table: String, pk: String) throws(ClientError) -> Bool {
        try readRow(table: table, pk: pk).shadow != nil
    }

    func readRow(table: String, pk: String) throws(ClientError) -> StoredRow {
        let raw = try db.query("SELECT base, body, shadow_seq FROM rows WHERE tbl = ? AND pk = ?", [.text(table), .text(pk)]) {
            ($0.text(0), $0.text(1), $0.isNull(2) ? nil : $0.integer(2))
        }
        guard let (base, body, shadow) = raw.first else { return StoredRow() }
        return StoredRow(base: try base.map(Self.object), body: try body.map(Self.object), shadow: shadow)
    }

    func storeRow(table: String, pk: String, base: JSONObject?, body: JSONObject?, shadow: Int64?) throws(ClientError) {
        try db.query(
            """
            INSERT INTO rows (tbl, pk, base, body, shadow_seq) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (tbl, pk) DO UPDATE SET base = excluded.base, body = excluded.body, shadow_seq = excluded.shadow_seq
            """,
            [.text(table), .text(pk), Self.text(base), Self.text(body), shadow.map { .integer($0) } ?? .null])
    }

    /// Sets a row's base (nil: absent, with a shadow over every entry queued so far), then recomputes its body.
    func setBase(table: String, pk: String, to base: JSONObject?, shadowing: Bool) throws(ClientError) {
        var stored = try readRow(table: table, pk: pk)
        stored.base = base
        if base != nil {
            stored.shadow = nil
        } else if shadowing {
            stored.shadow = try db.query("SELECT MAX(seq) FROM outbox") { $0.isNull(0) ? nil : $0.integer(0) }.first.flatMap { $0 } ?? 0
        }
        try storeRow(table: table, pk: pk, base: stored.base, body: stored.body, shadow: stored.shadow)
        try recompute(table: table, pk: pk)
    }

    /// Recomputes a row's body: the pending entries for its key replayed in issue order over its base.
    func recompute(table: String, pk: String) throws(ClientError) {
        let stored = try readRow(table: table, pk: pk)
        var body = stored.base
        for entry in try entries(table: table, pk: pk) {
            let suppressed = stored.shadow.map { entry.sequence <= $0 } ?? false
            body = replay(entry.mutation, over: body, suppressed: suppressed)
        }
        try storeRow(table: table, pk: pk, base: stored.base, body: body, shadow: stored.shadow)
    }

    /// Recomputes every stored row's body (the rebase after a closing pull).
    func recomputeAll() throws(ClientError) {
        let keys = try db.query("SELECT tbl, pk FROM rows") { ($0.text(0) ?? "", $0.text(1) ?? "") }
        for (table, pk) in keys { try recompute(table: table, pk: pk) }
    }

    /// The row after one mutation is replayed over it; an update never makes an absent row visible, and a
    /// suppressed (shadowed) insert leaves the row absent.
    func replay(_ mutation: Mutation, over current: JSONObject?, suppressed: Bool) -> JSONObject? {
        switch mutation.op {
        case .delete:
            return nil
        case .insert:
            if suppressed { return current }
            var row = current ?? [:]
            for member in mutation.columns.members { row[member.key] = member.value }
            return row
        case .update:
            let resurrect = faults.contains(.resurrectUnderTombstone)
            guard var row = current ?? (resurrect ? JSONObject() : nil) else { return nil }
            for member in mutation.columns.members { row[member.key] = member.value }
            for (column, transform) in mutation.transforms {
                if let value = transform.applied(to: row[column]) { row[column] = value }
            }
            return row
        }
    }
}
