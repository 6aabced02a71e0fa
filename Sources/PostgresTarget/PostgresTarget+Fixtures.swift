import Corpus
import JSON
import KizunaWire
import ServerContract

extension PostgresTarget {
    /// Resets the database to a case: rolls back held transactions, empties the synced tables and
    /// the pack's bookkeeping, writes the case's `_config` rows and settings, restarts the change
    /// sequence at `next_seq`, then applies the history, each change in its own transaction.
    /// - Returns: the base and the seq each history change stamped (read back from the sequence),
    ///   and the database's own time at the seed.
    /// - Throws: `TargetError` when the database refuses (a table outside the configuration, say).
    public func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        let admin: PostgresConnection
        do throws(PostgresError) { admin = try await connections().admin } catch { throw await targetError(error) }
        for connection in held.values { _ = try? await connection.execute("rollback", context: "seed") }
        held = [:]
        var tables: [(TableConfig, TargetConfig.Table)] = []
        for table in seed.server.tables {
            guard let known = config.table(table.name) else {
                throw .refused(
                    "table \"\(table.name)\" is not among the target's synced tables (\(config.tables.map(\.name).joined(separator: ", ")))"
                )
            }
            tables.append((table, known))
        }
        let schema = RPCFunction.quoted(config.schema)
        let synced = config.tables.map { "public.\(RPCFunction.quoted($0.name))" }
        let bookkeeping = ["_changelog", "_tombstones", "_verdicts", "_bucket_grants", "_row_hlc", "_conflict_journal", "_clients"]
            .map { "\(schema).\($0)" }
        do throws(PostgresError) {
            try await empty(synced + bookkeeping, on: admin)
            try await admin.execute(
                """
                update \(schema)._reap_state set reaped_seq = 0, reaped_at = null where id;
                delete from \(schema)._config where true;
                """, context: "seed")
            for (table, known) in tables {
                try await admin.execute(
                    """
                    insert into \(schema)._config (table_name, sync_mode, bucket_column, soft_delete_column, tombstone_ttl_days,
                      min_schema_version, conflict_mode, conflict_journal, key_columns)
                    values ($1, $2, $3, $4, $5::integer, $6::integer, $7, $8::boolean, $9::text[])
                    """,
                    [
                        table.name, known.syncMode, table.bucketColumn, table.softDeleteColumn, String(seed.server.tombstoneTTLDays),
                        String(seed.server.minSchemaVersion), table.conflictMode ?? "arrival", (table.conflictJournal ?? false) ? "t" : "f",
                        Self.textArray(table.keyColumns ?? known.keyColumns),
                    ], context: "seed")
            }
            try await admin.execute(
                "update \(schema)._settings set max_pull_scan = $1::integer, tombstone_ttl_days = $2::integer where id",
                [String(seed.server.maxPullScan ?? 5000), String(seed.server.tombstoneTTLDays)], context: "seed")
            try await admin.execute(
                "select setval($1::regclass, $2::bigint, false)", ["\(schema)._change_seq", seed.nextSeq.text], context: "seed")
            try await admin.execute("commit", context: "seed")
        } catch {
            _ = try? await admin.execute("rollback", context: "seed")
            throw await targetError(error)
        }
        projection = RowProjection()
        seeded = [:]
        for (table, known) in tables {
            let keys = table.keyColumns ?? known.keyColumns
            seeded[table.name] = (keys, table.conflictMode ?? "arrival")
            projection.keyColumns[table.name] = keys
        }
        let seededAt: UTCTimestamp?
        do throws(PostgresError) {
            let clock = try await admin.execute(
                #"select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#, context: "seed")
            seededAt = clock.scalar.flatMap { UTCTimestamp($0) }
        } catch {
            throw await targetError(error)
        }
        let base = try await lastSeq(on: admin)
        var stamped: [SequenceNumber?] = []
        for change in seed.history {
            let before = try await lastSeq(on: admin)
            try await apply(change, heldIn: nil)
            let after = try await lastSeq(on: admin)
            stamped.append(after != before ? after : nil)
        }
        return SeedReceipt(base: base, history: stamped, seededAt: seededAt)
    }

    /// Applies another actor's change as superuser DML, so the pack's triggers queue and stamp it
    /// like any write; with `transaction`, on that transaction's own connection, left open.
    /// - Parameters:
    ///   - change: the change.
    ///   - transaction: the held transaction's name, or nil to commit at once.
    /// - Throws: `TargetError` when the database refuses (a delete of an absent row, say).
    public func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        let connection: PostgresConnection
        do throws(PostgresError) {
            if let transaction {
                if case .reap = change { throw .config("a reap cannot be held in transaction \(transaction)") }
                if let open = held[transaction] {
                    connection = open
                } else {
                    connection = try await PostgresConnection(url: url, shown: shownURL)
                    try await connection.execute(Self.sessionGuards + " begin;", context: "hold \(transaction)")
                    held[transaction] = connection
                }
            } else {
                connection = try await connections().admin
                try await connection.execute("begin", context: "change")
            }
            try await write(change, on: connection)
            if transaction == nil { try await connection.execute("commit", context: "change") }
        } catch {
            if let transaction, let open = held.removeValue(forKey: transaction) {
                // The held transaction is aborted now; its commit step will find it gone.
                _ = try? await open.execute("rollback", context: "hold \(transaction)")
            } else if transaction == nil, case .connected(let open) = state {
                _ = try? await open.admin.execute("rollback", context: "change")
            }
            throw await targetError(error)
        }
    }

    /// Commits a held transaction: the pack stamps its changes now.
    /// - Throws: `TargetError.refused` when no such transaction is open or the commit fails.
    public func commit(transaction: String) async throws(TargetError) {
        guard let connection = held.removeValue(forKey: transaction) else { throw .refused("no open transaction \(transaction)") }
        do throws(PostgresError) {
            try await connection.execute("commit", context: "commit \(transaction)")
        } catch {
            throw await targetError(error)
        }
    }

    private func write(_ change: FixtureChange, on connection: PostgresConnection) async throws(PostgresError) {
        let schema = RPCFunction.quoted(config.schema)
        switch change {
        case .upsert(let table, let pk, let columns, _, let hlc):
            let (keys, mode) = try seededTable(table)
            let name = "public.\(RPCFunction.quoted(table))"
            let written = columns.keys.filter { !keys.contains($0) }
            let all = (keys + written).map(RPCFunction.quoted)
            let update =
                written.isEmpty
                ? "do nothing"
                : "do update set "
                    + written.map { "\(RPCFunction.quoted($0)) = excluded.\(RPCFunction.quoted($0))" }.joined(separator: ", ")
            try await connection.execute(
                """
                insert into \(name) (\(all.joined(separator: ", ")))
                select \(all.map { "r.\($0)" }.joined(separator: ", "))
                from jsonb_populate_record(null::\(name), $1::jsonb || \(schema)._pk_object($2::text[], $3)) r
                on conflict (\(keys.map(RPCFunction.quoted).joined(separator: ", "))) \(update)
                """, [CanonicalJSON.compact(.object(columns)), Self.textArray(keys), pk], context: "change \(table)/\(pk)")
            if mode == "hlc", let hlc, !written.isEmpty {
                let stamps = JSONObject(pairs: written.map { ($0, .string(hlc)) })
                try await connection.execute(
                    "select set_config('kizunasync.rpc', '1', true), \(schema)._row_hlc_merge($1, $2, $3::jsonb)",
                    [table, pk, CanonicalJSON.compact(.object(stamps))], context: "change \(table)/\(pk)")
            }
            projection.noteWrite(table: table, columns: columns.keys)
        case .delete(let table, let pk, _):
            let (keys, _) = try seededTable(table)
            let gone = try await connection.execute(
                """
                with gone as (delete from public.\(RPCFunction.quoted(table)) t where \(schema)._pk_text($1::text[], to_jsonb(t)) = $2 returning 1)
                select count(*) from gone
                """, [Self.textArray(keys), pk], context: "change \(table)/\(pk)")
            if gone.scalar == "0" { throw .config("delete of \(table)/\(pk): no live row") }
        case .reap:
            // Every tombstone recorded so far is aged past the longest TTL, then the pack's own
            // reaper runs and moves the reap horizon as it would on its schedule.
            try await connection.execute(
                """
                update \(schema)._tombstones set deleted_at = deleted_at - make_interval(days => 1 + greatest(
                  coalesce((select max(c.tombstone_ttl_days) from \(schema)._config c), 0),
                  (select s.tombstone_ttl_days from \(schema)._settings s))) where true;
                select \(schema).reap_tombstones();
                """, context: "reap")
        }
    }

    /// Opens the seed's transaction with the tables emptied. A DELETE with the capture triggers
    /// switched off (`session_replication_role = replica`) is several times faster than TRUNCATE on
    /// tables a case leaves nearly empty; a role that may not set it gets TRUNCATE.
    private func empty(_ tables: [String], on admin: PostgresConnection) async throws(PostgresError) {
        let deletes = tables.map { "delete from \($0) where true;" }.joined(separator: "\n")
        do {
            try await admin.execute(
                "begin; set local session_replication_role = replica;\n\(deletes)\nset local session_replication_role = origin;",
                context: "seed")
        } catch  where error.sqlState == "42501" {
            try await admin.execute("rollback; begin; truncate \(tables.joined(separator: ", "));", context: "seed")
        }
    }

    private func seededTable(_ name: String) throws(PostgresError) -> (keys: [String], conflictMode: String) {
        guard let table = seeded[name] else { throw .config("table \"\(name)\" is not configured by the seed") }
        return table
    }

    /// The change sequence's last drawn value (zero when nothing was drawn since the seed's setval).
    private func lastSeq(on connection: PostgresConnection) async throws(TargetError) -> SequenceNumber {
        do throws(PostgresError) {
            let result = try await connection.execute(
                "select case when is_called then last_value else last_value - 1 end from \(RPCFunction.quoted(config.schema))._change_seq",
                context: "seed")
            return result.scalar.flatMap { SequenceNumber($0) } ?? .zero
        } catch {
            throw await targetError(error)
        }
    }

    /// A PostgreSQL text-array literal of plain names: `{id}`, `{hall,seat}`.
    static func textArray(_ names: [String]) -> String { "{" + names.joined(separator: ",") + "}" }
}
