import JSON
import KizunaWire

/// A conflict-journal entry as stored: who overwrote which column's value, at which seq.
struct StoredConflict: Sendable {
    var table: String
    var pk: String
    var column: String
    var mode: String
    var loser: JSONValue
    var winnerMutation: String
    var winnerSeq: Int64
    var bucket: JSONValue?
}

extension Store {
    // MARK: the verdict ledger

    func ledger(_ mutationID: String) throws(ReferenceServerError) -> LedgerEntry? {
        try db.query(
            "SELECT user_id, applied, reason, has_row, tbl, pk FROM kz_ledger WHERE mutation_id = ?1", [.text(mutationID)]
        ) { statement in
            // A rejection whose reason does not read back is answered as RLS_DENIED, the verdict
            // that reveals nothing.
            let verdict: LedgerEntry.Verdict =
                statement.integer(1) != 0
                ? .applied(hasRow: statement.integer(3) != 0)
                : .rejected(statement.text(2).flatMap(RejectionReason.init(rawValue:)) ?? .rlsDenied)
            return LedgerEntry(user: statement.text(0) ?? "", verdict: verdict, table: statement.text(4) ?? "", pk: statement.text(5) ?? "")
        }.first
    }

    func record(_ mutationID: String, client: String, entry: LedgerEntry) throws(ReferenceServerError) {
        let (applied, reason, hasRow): (Bool, RejectionReason?, Bool) =
            switch entry.verdict {
            case .applied(let hasRow): (true, nil, hasRow)
            case .rejected(let reason): (false, reason, true)
            }
        try db.run(
            """
            INSERT OR REPLACE INTO kz_ledger(mutation_id, user_id, client_id, applied, reason, has_row, tbl, pk)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .text(mutationID), .text(entry.user), .text(client), .integer(applied ? 1 : 0),
                reason.map { .text($0.rawValue) } ?? .null, .integer(hasRow ? 1 : 0), .text(entry.table), .text(entry.pk),
            ])
    }

    // MARK: delivery grants

    /// Grants are per user, table and bucket value, as upstream's `_bucket_grants` keeps them
    /// (D-tombstone-delivery: "one row per user, table, and value"): every device of the user
    /// holds what one of them received.
    func grant(user: String, table: String, bucket: JSONValue) throws(ReferenceServerError) {
        try db.run(
            "INSERT OR IGNORE INTO kz_user_grants(user_id, tbl, bucket) VALUES(?1, ?2, ?3)",
            [.text(user), .text(table), .text(StoredJSON.text(bucket))])
    }

    func hasGrant(user: String, table: String, bucket: JSONValue) throws(ReferenceServerError) -> Bool {
        try !db.query(
            "SELECT 1 FROM kz_user_grants WHERE user_id = ?1 AND tbl = ?2 AND bucket = ?3",
            [.text(user), .text(table), .text(StoredJSON.text(bucket))]
        ) { _ in true }.isEmpty
    }

    // MARK: the conflict journal

    func add(_ conflict: StoredConflict) throws(ReferenceServerError) {
        try db.run(
            """
            INSERT INTO kz_conflicts(tbl, pk, col, mode, loser, winner_mutation, winner_seq, bucket)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .text(conflict.table), .text(conflict.pk), .text(conflict.column), .text(conflict.mode),
                .text(StoredJSON.text(conflict.loser)), .text(conflict.winnerMutation), .integer(conflict.winnerSeq),
                conflict.bucket.map { .text(StoredJSON.text($0)) } ?? .null,
            ])
    }

    /// Journal entries of `table` whose winning write lies in (after, upTo], in seq order.
    func conflicts(table: String, after: Int64, upTo: Int64) throws(ReferenceServerError) -> [StoredConflict] {
        try db.query(
            """
            SELECT pk, col, mode, loser, winner_mutation, winner_seq, bucket FROM kz_conflicts
            WHERE tbl = ?1 AND winner_seq > ?2 AND winner_seq <= ?3 ORDER BY winner_seq, pk, col
            """, [.text(table), .integer(after), .integer(upTo)]
        ) { (statement) throws(ReferenceServerError) in
            StoredConflict(
                table: table, pk: statement.text(0) ?? "", column: statement.text(1) ?? "", mode: statement.text(2) ?? "arrival",
                loser: try StoredJSON.value(statement.text(3) ?? "null"), winnerMutation: statement.text(4) ?? "",
                winnerSeq: statement.integer(5),
                bucket: try statement.text(6).map { (text) throws(ReferenceServerError) in try StoredJSON.value(text) })
        }
    }
}
