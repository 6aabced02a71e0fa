/// Accord's corpus domain on PostgreSQL: the tables the corpus names (fixtures/domain.json:
/// todos, notices, seats, tags; and Accord's own checklist), each owned through `owner_id` under
/// owner-only RLS for `authenticated`, with the pack's capture triggers attached, plus the marker
/// that tells the Postgres target it may empty them. Every statement is idempotent. It needs the
/// pack (the `kizunasync` schema) and Supabase's `auth.uid()` in place first.
public enum CorpusDomain {
    /// The marker table: its presence is what lets `--server postgres://…` reset a database.
    public static let marker = "accord.target_marker"

    /// The SQL that creates only the marker, for a database whose tables a team made itself.
    public static let markerSQL = """
        create schema if not exists accord;
        create table if not exists accord.target_marker (
          id boolean primary key default true check (id),
          created_at timestamptz not null default now(),
          note text not null
        );
        insert into accord.target_marker (note)
        values ('Created for accord: the Postgres target empties the synced tables and the kizunasync bookkeeping at every case.')
        on conflict (id) do nothing;
        """

    /// The domain's tables, columns nullable with no defaults (a row renders what its writes gave it).
    static let tables: [(name: String, columns: String)] = [
        (
            "todos",
            "id uuid primary key, owner_id uuid, title text, done boolean, likes integer, labels text[], version integer, deleted_at timestamptz"
        ),
        ("notices", "id bigint primary key, owner_id uuid, body text"),
        ("seats", "hall bigint not null, seat integer not null, owner_id uuid, holder text, primary key (hall, seat)"),
        ("tags", "id uuid primary key, owner_id uuid, label text"),
        ("checklist", "id uuid primary key, owner_id uuid, title text not null, done boolean, version integer"),
    ]

    /// The whole domain: tables, RLS, grants, triggers, marker.
    public static var sql: String {
        var statements: [String] = []
        for (name, columns) in tables {
            statements.append("create table if not exists public.\(name) (\(columns));")
            statements.append("alter table public.\(name) enable row level security;")
            for (command, clause) in [
                ("select", "using (owner_id = auth.uid())"), ("insert", "with check (owner_id = auth.uid())"),
                ("update", "using (owner_id = auth.uid()) with check (owner_id = auth.uid())"), ("delete", "using (owner_id = auth.uid())"),
            ] {
                statements.append("drop policy if exists accord_owner_\(command) on public.\(name);")
                statements.append("create policy accord_owner_\(command) on public.\(name) for \(command) to authenticated \(clause);")
            }
            statements.append("drop trigger if exists accord_track_change on public.\(name);")
            statements.append(
                "create trigger accord_track_change after insert or update on public.\(name) for each row execute function kizunasync.track_change();"
            )
            statements.append("drop trigger if exists accord_track_delete on public.\(name);")
            statements.append(
                "create trigger accord_track_delete after delete on public.\(name) for each row execute function kizunasync.track_delete();"
            )
        }
        statements += [
            "grant select, insert, update, delete on public.todos, public.seats, public.tags to authenticated;",
            // notices is pull-only (its _config sync_mode refuses pushes with KZP01 first).
            "grant select on public.notices to authenticated;",
            // checklist: devices may not write `version` (server-maintained: COLUMN_DENIED), as the
            // reference server's domain says.
            "revoke all on public.checklist from authenticated;",
            "grant select, delete on public.checklist to authenticated;",
            "grant insert (id, owner_id, title, done), update (owner_id, title, done) on public.checklist to authenticated;",
        ]
        return statements.joined(separator: "\n") + "\n" + markerSQL
    }
}

extension CorpusDomain {
    /// Prepares a database for the Postgres target, in one transaction: the corpus domain and the
    /// marker, or the marker alone for a database whose synced tables a team made itself.
    /// - Parameters:
    ///   - url: the database URL.
    ///   - markerOnly: write only the marker.
    /// - Returns: what was installed, in one line.
    /// - Throws: `PostgresError` when the database cannot be reached, lacks the pack, or refuses.
    public static func install(url: String, markerOnly: Bool) async throws(PostgresError) -> String {
        let shown = PostgresTarget.withoutPassword(url)
        let connection = try await PostgresConnection(url: url, shown: shown)
        if !markerOnly {
            let pack = try await connection.execute(
                "select to_regprocedure('kizunasync.track_change()') is not null", context: "postgres-init")
            guard pack.scalar == "t" else {
                throw .notPrepared(
                    "\(shown) has no kizunasync.track_change(): apply the KizunaSync pack (and, on a bare Postgres, its vendor stub) first")
            }
        }
        do throws(PostgresError) {
            try await connection.execute("begin;\n" + (markerOnly ? markerSQL : sql) + "\ncommit;", context: "postgres-init")
        } catch {
            _ = try? await connection.execute("rollback", context: "postgres-init")
            throw error
        }
        return markerOnly
            ? "\(shown): marked \(marker); the Postgres target may now empty the synced tables its --postgres-config names"
            : "\(shown): installed the corpus domain (\(tables.map(\.name).joined(separator: ", "))) and \(marker)"
    }
}
