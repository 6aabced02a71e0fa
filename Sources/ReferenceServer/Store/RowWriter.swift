import JSON
import ServerContract

/// Writes rows the way every writer does (a push, another actor, a held transaction's commit):
/// stamps the global seq, keeps the column clocks, leaves a tombstone for a bucket move-out
/// and for a hard delete.
struct RowWriter {
    let store: Store
    var noOpWrites = TargetCapabilities.NoOpWrites.stamped

    /// Writes `columns` over the row (creating it when absent) and returns the row as written.
    /// - Parameters:
    ///   - table: the table.
    ///   - pk: the row key.
    ///   - columns: the new column values (the mask).
    ///   - previous: the live row before the write, if any.
    ///   - writer: the writing client or actor.
    ///   - hlc: the origin clock recorded on the written columns.
    ///   - deletedAt: the time a move-out tombstone records.
    ///   - seq: a seq stamped earlier (a held transaction), or nil to take the next one.
    func upsert(
        table: SyncedTable, pk: String, columns: JSONObject, previous: StoredRow?, writer: String, hlc: String?, deletedAt: String,
        seq: Int64? = nil
    ) throws(ReferenceServerError) -> StoredRow {
        var data = previous?.data ?? JSONObject()
        for member in columns.members { data[member.key] = member.value }
        if noOpWrites == .unstamped, seq == nil, let previous,
            columns.members.allSatisfy({ (previous.data[$0.key] ?? .null) == $0.value })
        {
            // Nothing changed: no seq, no delivery (upstream's SQL pack: "An update that changes
            // no column is not a change to replicate"). The column clocks still move.
            for member in columns.members {
                try store.putCell(table.name, pk, member.key, StoredCell(seq: previous.seq, writer: writer, hlc: hlc))
            }
            return previous
        }
        if let bucketColumn = table.bucketColumn, let previous, let old = previous.data[bucketColumn], data[bucketColumn] != old {
            // D-bucket-move-out: the old bucket value gets a tombstone, stamped before the moved row.
            let tombstoneSeq = try store.allocateSeq()
            try store.add(
                StoredTombstone(table: table.name, pk: pk, seq: tombstoneSeq, deletedAt: deletedAt, bucket: old, actor: writer))
            try store.committed(tombstoneSeq)
        }
        let stamped = try stampOrAllocate(seq)
        let row = StoredRow(table: table.name, pk: pk, seq: stamped, data: data)
        try store.put(row)
        for member in columns.members {
            try store.putCell(table.name, pk, member.key, StoredCell(seq: stamped, writer: writer, hlc: hlc))
        }
        try store.committed(stamped)
        return row
    }

    private func stampOrAllocate(_ seq: Int64?) throws(ReferenceServerError) -> Int64 {
        if let seq { return seq }
        return try store.allocateSeq()
    }

    /// Hard-deletes a live row, leaving a tombstone with its bucket snapshot.
    /// - Parameters:
    ///   - table: the table.
    ///   - row: the live row.
    ///   - writer: the deleting client or actor.
    ///   - deletedAt: the deletion time.
    ///   - seq: a seq stamped earlier, or nil to take the next one.
    func delete(table: SyncedTable, row: StoredRow, writer: String, deletedAt: String, seq: Int64? = nil)
        throws(ReferenceServerError)
    {
        let stamped = try stampOrAllocate(seq)
        try store.deleteRow(table.name, row.pk)
        let bucket = table.bucketColumn.flatMap { row.data[$0] }
        try store.add(StoredTombstone(table: table.name, pk: row.pk, seq: stamped, deletedAt: deletedAt, bucket: bucket, actor: writer))
        try store.committed(stamped)
    }
}
