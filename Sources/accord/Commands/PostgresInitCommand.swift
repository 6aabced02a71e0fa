import Harness
import Lanes
import PostgresTarget

enum PostgresInitCommand: Command {
    static let spec = CommandSpec(
        name: "postgres-init",
        abstract: "Prepare a PostgreSQL database for 'accord run --server postgres://…'.",
        discussion: """
            Installs Accord's corpus domain (public.todos, notices, seats, tags and checklist, owned through
            owner_id under owner-only RLS for 'authenticated', with the pack's capture triggers) and the
            marker table accord.target_marker, in one transaction. The KizunaSync pack must already be
            applied (on a bare Postgres, after upstream's vendor stub). The Postgres target empties the
            synced tables and the pack's bookkeeping at every case, so it refuses a database without the
            marker: run this only on a database created for Accord. With --marker-only, only the marker is
            written, for a database whose tables a team made itself (see docs/postgres.md).
            Exit status: 0 when prepared, 64 for a usage error, 69 when the database cannot be reached or refuses.
            """,
        arguments: [CommandSpec.Argument(name: "url", help: "The database, e.g. postgres://accord@127.0.0.1:5432/accord.")],
        options: [OptionSpec(flag: .markerOnly, help: "Write only the marker, not the corpus domain.")])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.count == 1, let url = arguments.positionals.first else {
            throw RunError.usage("postgres-init takes one <url>\nSee 'accord help postgres-init'.")
        }
        do throws(PostgresError) {
            console.out(try await CorpusDomain.install(url: url, markerOnly: arguments.has(.markerOnly)))
            return ExitCode.success
        } catch {
            throw RunError.unavailable("\(error)")
        }
    }
}
