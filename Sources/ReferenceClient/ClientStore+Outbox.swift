import Foundation
import KizunaWire

extension ClientStore {
    /// Every pending outbox entry in issue order.
    /// - Returns: the entries, oldest first.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the outbox cannot be read.
    public func outbox() throws(ClientError) -> [OutboxEntry] {
        try entries(limit: nil)
    }

    /// The head of the outbox that one push sends: the whole consecutive run of one atomic group, or up to `maxEntries` ordinary entries.
    /// - Parameter maxEntries: the most ordinary entries to take (an atomic run is never split).
    /// - Returns: the head entries in issue order; empty when the outbox is empty.
    /// - Throws: `ClientError` with `STORE` or `JSON` when the outbox cannot be read.
    public func head(maxEntries: Int = 500) throws(ClientError) -> [OutboxEntry] {
        guard let first = try entries(limit: 1).first else { return [] }
        if let group = first.atomicGroup {
            // The run ends at the first entry with another label (or none).
            let end =
                try db.query(
                    "SELECT MIN(seq) FROM outbox WHERE seq > ? AND (atomic_group IS NULL OR atomic_group <> ?)",
                    [.integer(first.sequence), .text(group)]
                ) { $0.isNull(0) ? nil : $0.integer(0) }.first.flatMap { $0 }
            return try entries(limit: nil, before: end)
        }
        let end = try db.query("SELECT MIN(seq) FROM outbox WHERE atomic_group IS NOT NULL") { $0.isNull(0) ? nil : $0.integer(0) }
            .first.flatMap { $0 }
        return try entries(limit: max(maxEntries, 1), before: end)
    }

    func entries(limit: Int?, before end: Int64? = nil) throws(ClientError) -> [OutboxEntry] {
        var sql = "SELECT seq, mutation, atomic_group, attempts FROM outbox"
        var values: [SQLValue] = []
        if let end {
            sql += " WHERE seq < ?"
            values.append(.integer(end))
        }
        sql += " ORDER BY seq"
        if let limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(limit)))
        }
        return try decode(try db.query(sql, values) { ($0.integer(0), $0.text(1) ?? "", $0.text(2), Int($0.integer(3))) })
    }

    /// The pending entries for one row key, in issue order.
    func entries(table: String, pk: String) throws(ClientError) -> [OutboxEntry] {
        let raw = try db.query(
            "SELECT seq, mutation, atomic_group, attempts FROM outbox WHERE tbl = ? AND pk = ? ORDER BY seq", [.text(table), .text(pk)]
        ) { ($0.integer(0), $0.text(1) ?? "", $0.text(2), Int($0.integer(3))) }
        return try decode(raw)
    }

    /// The pending entries with sequence numbers in `first...last`, in issue order.
    func entries(from first: Int64, through last: Int64) throws(ClientError) -> [OutboxEntry] {
        let raw = try db.query(
            "SELECT seq, mutation, atomic_group, attempts FROM outbox WHERE seq BETWEEN ? AND ? ORDER BY seq",
            [.integer(first), .integer(last)]
        ) { ($0.integer(0), $0.text(1) ?? "", $0.text(2), Int($0.integer(3))) }
        return try decode(raw)
    }

    private func decode(_ raw: [(Int64, String, String?, Int)]) throws(ClientError) -> [OutboxEntry] {
        try raw.map { (sequence, text, group, attempts) throws(ClientError) in
            let json = try Self.parse(text)
            let mutation: Mutation
            do {
                mutation = try Mutation(json: json, at: .root, malformed: .json)
            } catch {
                throw ClientError(.json, "outbox entry \(sequence) is not a mutation: \(error)")
            }
            return OutboxEntry(sequence: sequence, mutation: mutation, atomicGroup: group, attempts: attempts)
        }
    }

    /// Removes one entry (inside a transaction).
    func removeEntry(_ sequence: Int64) throws(ClientError) {
        try db.query("DELETE FROM outbox WHERE seq = ?", [.integer(sequence)])
    }

    /// Appends a journal row (inside a transaction); the in-memory copy is updated by `noteJournal` after commit.
    func insertJournal(_ entry: ClientJournalEntry) throws(ClientError) {
        try db.query(
            "INSERT INTO journal (tbl, pk, reason, mutation_id, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(entry.table), .text(entry.pk), .text(entry.reason), entry.mutationID.map { .text($0) } ?? .null,
                Self.text(entry.data),
            ])
    }

    /// Re-reads the outbox depth after a committed change.
    func refreshDepth() throws(ClientError) {
        outboxDepth = Int(try db.query("SELECT COUNT(*) FROM outbox") { $0.integer(0) }.first ?? 0)
    }
}
