import Harness
import Lanes

enum DiffCommand: Command {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Replay recordings against two servers and report where their responses differ.",
        discussion: """
            The recorded requests are sent in recording order to a freshly seeded target of each server, each
            as its recorded user and client, with server-made values (cursor, seq, winner_seq, deleted_at)
            bound per target as in 'accord run --server'. The two live responses of every exchange are compared as canonical
            bytes; each difference is reported with the exchange number and its JSON pointer, and marked
            when it is a server-made value. With --tier bound, answers equal once the first server's
            server-made values are bound to the second's (a bijection that keeps order) are accepted.
            A PowerSync recording is replayed as the server lane replays it (its fixture calls the source
            steps) and each exchange's two answers compared, stream lines decoded (token_expires_in lines
            aside), each difference named by step, NDJSON line and JSON pointer.
            docs/replay.md has the details.
            Exit status: 0 when every response is identical, 1 on differences, 64 for a usage or input error.
            """,
        arguments: [CommandSpec.Argument(name: "recording", help: "A recording (.jsonl); one or more.", isRepeatable: true)],
        options: [
            OptionSpec(
                .server, value: "target", help: "A server to compare: 'embedded' or a URL with the fixture endpoint; give exactly two.",
                required: true, repeatable: true)
        ]
            + SharedOptions.urlTarget(
                "The HS256 secret URL targets verify JWTs with (default: $ACCORD_JWT_SECRET).",
                apikeyHelp: "The apikey header to send to URL targets.")
            + [
                OptionSpec(
                    .tier, value: "tier",
                    help:
                        "'pass' (default): any byte difference counts; 'bound' ('semantic' is its old name): accept server-made values that bind consistently."
                )
            ] + SharedOptions.reports.filter { $0.key != .html } + [SharedOptions.color, SharedOptions.maxLine])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let servers = arguments.values(.server)
        guard servers.count == 2 else {
            throw RunError.usage("accord diff takes exactly two --server options, found \(servers.count)\nSee 'accord help diff'.")
        }
        if arguments.positionals.isEmpty { throw RunError.usage("missing <recording>\nSee 'accord help diff'.") }
        var options = DiffRun.Options(paths: arguments.positionals, targetNames: (servers[0], servers[1]))
        options.run.reports = ReportPaths(junit: arguments.value(.junit), json: arguments.value(.json))
        options.run.console.color = arguments.has(.color)
        options.run.inputs.maxLine = try SharedOptions.maxLine(arguments)
        if let tier = try arguments.value(.tier, as: .tier) { options.requiredTier = tier }
        let secret = arguments.value(.jwtSecret)
        let apiKey = arguments.value(.apikey)
        let targets = (try ServerTargetSpec(parsing: servers[0]), try ServerTargetSpec(parsing: servers[1]))
        let makeA = try await TargetChoice.factory(for: targets.0, jwtSecret: secret, apiKey: apiKey)
        let makeB = try await TargetChoice.factory(for: targets.1, jwtSecret: secret, apiKey: apiKey)
        let first = try TargetChoice.powerSyncFactory(for: targets.0, jwtSecret: secret)
        let second = try TargetChoice.powerSyncFactory(for: targets.1, jwtSecret: secret)
        let powerSync = first.flatMap { a in second.map { b in (a, b) } }
        let same = try await DiffRun.run(options, makeA: makeA, makeB: makeB, powerSync: powerSync) { console.out($0) }
        return same ? ExitCode.success : ExitCode.failure
    }
}
