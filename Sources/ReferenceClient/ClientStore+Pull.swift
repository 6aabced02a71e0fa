import JSON
import KizunaWire

extension ClientStore {
    /// The cursor the next pull request sends: the staged continuation, `"0"` while rehydrating, else the committed cursor.
    public var requestCursor: String { stagingCursor ?? (rehydrating ? "0" : cursor) }

    /// The number of staged (invisible) page entries.
    /// - Returns: the staged rows plus tombstones.
    /// - Throws: `ClientError` with `STORE`.
    public func stagedCount() throws(ClientError) -> Int {
        Int(try db.query("SELECT COUNT(*) FROM staging") { $0.integer(0) }.first ?? 0)
    }

    /// Stages a `has_more:true` page invisibly, with its continuation cursor, in one transaction.
    /// - Throws: `ClientError` with `STORE`.
    func stage(_ page: PullResponse) throws(ClientError) {
        try db.transaction { () throws(ClientError) in
            for change in Self.stream(page) {
                try db.query(
                    "INSERT INTO staging (tbl, pk, row) VALUES (?, ?, ?)", [.text(change.table), .text(change.pk), Self.text(change.row)])
            }
            try db.query("UPDATE sync_state SET staging_cursor = ? WHERE id = 1", [.text(page.cursor.description)])
        }
        stagingCursor = page.cursor.description
    }

    /// Commits a closing page: staged and final entries into the bases, tombstones, the cursor, the end of staging and of
    /// rehydration, then the rebase of the pending outbox, in one transaction (two with `cursor-before-data`).
    /// - Parameter page: the closing page (or, with `commit-staged-page`, any page).
    /// - Throws: `ClientError` with `STORE` or `JSON`; nothing is committed then.
    func commit(_ page: PullResponse) throws(ClientError) {
        let token = page.cursor.description
        if faults.contains(.cursorBeforeData) {
            try db.transaction { () throws(ClientError) in try commitCursor(token) }
            cursor = token
            reached(.beforeClosingCommit)
            try db.transaction { () throws(ClientError) in try commitData(page) }
        } else {
            reached(.beforeClosingCommit)
            try db.transaction { () throws(ClientError) in
                try commitCursor(token)
                try commitData(page)
            }
            cursor = token
        }
        stagingCursor = nil
        rehydrating = false
        for conflict in page.conflicts ?? [] {
            raise(
                "COLUMN_OVERWRITTEN", mutationID: conflict.winnerMutationID,
                data: [
                    "column_name": .string(conflict.columnName), "conflict_mode": .string(conflict.conflictMode),
                    "loser_value": conflict.loserValue, "pk": .string(conflict.pk), "table": .string(conflict.table),
                    "winner_mutation_id": .string(conflict.winnerMutationID), "winner_seq": .string(conflict.winnerSeq.text),
                ])
        }
    }

    private func commitCursor(_ token: String) throws(ClientError) {
        try db.query("UPDATE sync_state SET cursor = ? WHERE id = 1", [.text(token)])
    }

    /// Installs staged and final entries into the bases, ends staging and rehydration, and rebases the outbox.
    private func commitData(_ page: PullResponse) throws(ClientError) {
        if failAtSeam { throw ClientError(.store, "injected failure between the cursor and the rows of a closing pull") }
        let staged = try db.query("SELECT tbl, pk, row FROM staging ORDER BY ord") { ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2)) }
        var changes: [(table: String, pk: String, row: JSONObject?)] = []
        for (table, pk, text) in staged { changes.append((table, pk, try text.map(Self.object))) }
        changes += Self.stream(page)
        var delivered = Set<String>()
        for change in changes {
            let key = Self.key(change.table, change.pk)
            if change.row != nil { delivered.insert(key) } else { delivered.remove(key) }
            try setBase(table: change.table, pk: change.pk, to: change.row, shadowing: change.row == nil)
        }
        if rehydrating {
            // Rows a rehydration did not deliver are gone from the server's view of this client.
            let held = try db.query("SELECT tbl, pk FROM rows WHERE base IS NOT NULL") { ($0.text(0) ?? "", $0.text(1) ?? "") }
            for (table, pk) in held where !delivered.contains(Self.key(table, pk)) {
                try setBase(table: table, pk: pk, to: nil, shadowing: false)
            }
        }
        try db.query("DELETE FROM staging")
        try db.query("UPDATE sync_state SET staging_cursor = NULL, rehydrating = 0 WHERE id = 1")
        try recomputeAll()
    }

    /// The `drop-cursor-on-failed-commit` fault: forgets the committed cursor (`"0"`), and writes that down if it can.
    func dropCursor() {
        cursor = "0"
        _ = try? db.query("UPDATE sync_state SET cursor = '0' WHERE id = 1")
    }

    /// Drops any staged pages so the next pull restarts from the committed cursor; the committed cursor never moves.
    /// - Throws: `ClientError` with `STORE`.
    func dropStaging() throws(ClientError) {
        try db.transaction { () throws(ClientError) in try clearStaging() }
        stagingCursor = nil
    }

    /// Deletes the staged pages and the staging cursor (inside a transaction; the caller resets `stagingCursor` after commit).
    func clearStaging() throws(ClientError) {
        try db.query("DELETE FROM staging")
        try db.query("UPDATE sync_state SET staging_cursor = NULL WHERE id = 1")
    }

    /// Handles CHECKPOINT_EXPIRED: drops staging and marks the store for rehydration from `"0"`, durably.
    /// - Throws: `ClientError` with `STORE`.
    func expireCheckpoint() throws(ClientError) {
        try db.transaction { () throws(ClientError) in
            try db.query("DELETE FROM staging")
            try db.query("UPDATE sync_state SET staging_cursor = NULL, rehydrating = 1 WHERE id = 1")
        }
        stagingCursor = nil
        rehydrating = true
        raise("CHECKPOINT_EXPIRED")
    }

    /// A page's rows and tombstones merged in stream order (seq); a tombstone is a change to an absent row.
    static func stream(_ page: PullResponse) -> [(table: String, pk: String, row: JSONObject?)] {
        var merged: [(seq: SequenceNumber, table: String, pk: String, row: JSONObject?)] = []
        merged += page.rows.map { ($0.seq, $0.table, $0.pk, $0.row) }
        merged += page.tombstones.map { ($0.seq, $0.table, $0.pk, nil) }
        let ordered = merged.enumerated().sorted { ($0.element.seq, $0.offset) < ($1.element.seq, $1.offset) }
        return ordered.map { ($0.element.table, $0.element.pk, $0.element.row) }
    }

    private static func key(_ table: String, _ pk: String) -> String { table + "\u{0}" + pk }
}

extension ClientStore {
    /// Persists the committed pull cursor token (for tests and tools; pulls commit it themselves).
    /// - Parameter token: the new cursor token text.
    /// - Throws: `ClientError` with `STORE` when it cannot be written.
    public func setCursor(_ token: String) throws(ClientError) {
        try db.query("UPDATE sync_state SET cursor = ? WHERE id = 1", [.text(token)])
        cursor = token
    }
}
