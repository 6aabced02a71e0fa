import Corpus
import Foundation
import Harness
import Lanes
import ServerContract

enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Replay corpus cases against a server build or a client build and check every rule.",
        discussion: """
            Server lane (--server): seeds the target before each case and plays its server and rpc steps as a
            client following the conversation: every request carries the seqs, cursors and times this server
            answered (bindings: golden value -> live value, a bijection that keeps order). Every response is
            compared with the golden one (tiers: pass = canonical bytes equal; bound = equal once its
            server-made values are bound; diverged) and the rule catalog runs on each live exchange. A step
            that needs what the target cannot steer is reported not applicable, with the reason.
            PowerSync transcripts (docs/powersync.md) play against the embedded PowerSync service, or for a
            URL against a service with the /accord/powersync fixtures ('accord serve --profile powersync
            --fixtures'): their source steps set its state, each live line runs the PS rules and is compared
            with the golden one (AC-GOLDEN).
            Client lane (--client): starts the driver command once per case (docs/driver-protocol.md),
            serves the golden responses from a loopback PostgREST mock that checks every request, injects
            the faults, and checks assertions and postconditions through the driver's state. A command
            starting with 'accord' runs this accord binary ('accord driver' is the reference client).
            Recordings (.jsonl) replay in both lanes, one suite each: to a server, the recorded requests are
            sent in recording order to one freshly seeded target, each as its session's user and client,
            with server-made values (cursor, seq, winner_seq, deleted_at) bound to the live ones; to a
            client, each session's pushed mutations become writes and the recorded responses are served.
            A PowerSync recording replays as the transcript it converts to, its recorded fixture calls the
            source steps. docs/replay.md has the details.
            Before the first case the runner checks its target: a URL server must answer, have its fixture
            endpoint on and take the JWT the runner mints; a driver must start and answer hello within
            --timeout. A failing case's lines are printed as soon as it ends, a progress line is kept on
            standard error when that is a terminal, and the verdict comes last (--quiet: the summary only).
            Exit status: 0 when nothing failed, 1 when a case failed, 64 for a usage or input error, 78 for a
            setup problem (a target that cannot be tested as given, said in one line with how to fix it) or a
            run in which no check ran (every testcase skipped; --allow-empty accepts it).
            """,
        arguments: [
            CommandSpec.Argument(
                name: "path", help: "A corpus folder, transcript file or recording (.jsonl); one or more.", isRepeatable: true)
        ],
        options: [
            OptionSpec(
                .server, value: "target",
                help:
                    "The server under test: 'embedded', the URL of a server with the fixture endpoint, a postgres:// URL of a database with the KizunaSync pack (docs/postgres.md), or checkpoint-backend+<URL> of a PowerSync app's custom checkpoint backend (docs/powersync.md)."
            ),
            OptionSpec(
                .backendToken, value: "token",
                help: "For a checkpoint-backend+ target: the app's credential, sent as Bearer (default: $ACCORD_BACKEND_TOKEN)."),
            OptionSpec(
                .postgresConfig, value: "file",
                help: "For a postgres:// target: its schema, role and synced tables (default: Accord's corpus domain)."),
            OptionSpec(.client, value: "command", help: "The client under test: a driver command line, e.g. 'accord driver'."),
            OptionSpec(
                flag: .killMatrix,
                help:
                    "Client lane: play each case once per kill point it reaches, SIGKILL the driver there, restart it on the same store and check recovery (docs/kill-matrix.md)."
            ),
            OptionSpec(
                flag: .storageFaults,
                help:
                    "Client lane: run the driver under libfiu and play each case once per storage-fault point and variant, with its writes, fsyncs and renames failing (EIO, ENOSPC) for one command (docs/storage-faults.md)."
            ),
            OptionSpec(
                .timeout, value: "seconds",
                help: "Client lane: how long the driver may take to answer one request, hello included (default 10)."),
        ]
            + SharedOptions.urlTarget(
                "The HS256 secret a URL target verifies JWTs with (default: $ACCORD_JWT_SECRET).",
                apikeyHelp: "The apikey header to send to a URL target.")
            + [
                OptionSpec(
                    .scenarios, value: "file",
                    help:
                        "Per-case setup (first seq, history, held transactions) over Accord's built-in setup for upstream's corpus; repeatable.",
                    repeatable: true
                ),
                OptionSpec(.knownFailing, value: "file", help: "Case ids that must fail; a listed case that passes fails the run."),
                OptionSpec(
                    .expect, value: "file",
                    help:
                        "Every case's expected outcome (pass, bound, not-applicable, skipped, known-failing with a reason); any difference fails the run."
                ),
                OptionSpec(
                    .tier, value: "tier",
                    help: "The tier a step must reach: 'bound' (default; 'semantic' is its old name) or 'pass' (byte-equal)."),
                OptionSpec(.filter, value: "glob", help: "Run only cases whose id matches <glob>."),
                OptionSpec(.shard, value: "i/n", help: "Run the i-th of n shards of the cases (1-based)."),
                SharedOptions.jobs,
            ] + SharedOptions.reports
            + [
                SharedOptions.color,
                OptionSpec(flag: .quiet, help: "Print the summary only: no line per failing case, no progress line."),
                OptionSpec(flag: .allowEmpty, help: "Exit 0 for a run in which no check ran (every testcase skipped), not 78."),
                SharedOptions.maxLine,
            ]
    )

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments.positionals.isEmpty {
            throw RunError.usage("missing <path>: give a corpus folder, transcript or recording\nSee 'accord help run'.")
        }
        switch (arguments.value(.server), arguments.value(.client)) {
        case (nil, nil): throw RunError.usage("missing --server <target> or --client <command>\nSee 'accord help run'.")
        case (_?, _?): throw RunError.usage("give one of --server and --client, not both\nSee 'accord help run'.")
        case (nil, let command?): return try await client(command, arguments, console: console)
        case (let target?, nil): return try await server(target, arguments, console: console)
        }
    }

    static func server(_ server: String, _ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments.has(.timeout) { throw RunError.usage("--timeout applies to the client lane only") }
        if arguments.has(.killMatrix) { throw RunError.usage("--kill-matrix applies to the client lane only") }
        if arguments.has(.storageFaults) { throw RunError.usage("--storage-faults applies to the client lane only") }
        let target = try ServerTargetSpec(parsing: server)
        var options = ServerRun.Options(paths: arguments.positionals, targetName: server)
        options.run = try runOptions(arguments)
        if let tier = try arguments.value(.tier, as: .tier) { options.requiredTier = tier }
        options.scenarios = try ScenarioFiles.load(arguments.values(.scenarios))
        if let known = try knownFailing(arguments) { options.run.selection.knownFailing = known }
        let factory = try await TargetChoice.factory(
            for: target, jwtSecret: arguments.value(.jwtSecret), apiKey: arguments.value(.apikey),
            postgresConfig: arguments.value(.postgresConfig))
        if target.isShared && options.run.selection.jobs > 1 {
            // One server behind one URL: a seed resets it for everyone, so cases take turns; said
            // only to a user who asked for more, so a setup error stays the run's one line.
            options.run.selection.jobs = 1
            if arguments.has(.jobs) {
                console.help("accord: note: --jobs 1 for a URL target: one server, and each case's seed resets it\n")
            }
        }
        let lane = ServerRun(
            options, makeTarget: factory,
            makePowerSyncTarget: try TargetChoice.powerSyncFactory(
                for: target, jwtSecret: arguments.value(.jwtSecret), backendToken: arguments.value(.backendToken)))
        let passed = try await LaneRunner(options.run).run(lane) { console.out($0) }
        return passed ? ExitCode.success : ExitCode.failure
    }

    static func client(_ command: String, _ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        for option in [OptionKey.tier, .scenarios, .jwtSecret, .apikey, .postgresConfig, .backendToken] where arguments.has(option) {
            throw RunError.usage("\(option) applies to the server lane only; the client lane serves the golden responses itself")
        }
        var options = ClientRun.Options(paths: arguments.positionals, clientName: command)
        options.run = try runOptions(arguments)
        let timeout = OptionConversion<Double>.seconds(in: Double.leastNonzeroMagnitude...3600, expected: "seconds between 0 and 3600")
        if let seconds = try arguments.value(.timeout, as: timeout) { options.requestTimeout = .seconds(seconds) }
        if let known = try knownFailing(arguments) { options.run.selection.knownFailing = known }
        let resolved = DriverCommandLine.resolve(command)
        guard !resolved.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RunError.usage("--client takes a command line, found ''")
        }
        if arguments.has(.storageFaults) {
            if arguments.has(.killMatrix) { throw RunError.usage("give one of --kill-matrix and --storage-faults, not both") }
            if options.run.selection.knownFailing != Expectations() {
                throw RunError.usage("--known-failing and --expect do not apply with --storage-faults")
            }
            let passed = try await ClientRun.run(
                options, matrix: .storageFaults,
                launch: { (environment: [String: String]) throws(RunError) in try ProcessDriver(command: resolved, environment: environment)
                }
            ) { console.out($0) }
            return passed ? ExitCode.success : ExitCode.failure
        }
        if arguments.has(.killMatrix) {
            if options.run.selection.knownFailing != Expectations() {
                throw RunError.usage("--known-failing and --expect do not apply with --kill-matrix")
            }
            let killed = try await ClientRun.run(
                options, matrix: .killPoints,
                launch: { (environment: [String: String]) throws(RunError) in try ProcessDriver(command: resolved, environment: environment)
                }
            ) { console.out($0) }
            return killed ? ExitCode.success : ExitCode.failure
        }
        let passed = try await ClientRun.run(options, launch: { () throws(RunError) in try ProcessDriver(command: resolved) }) {
            console.out($0)
        }
        return passed ? ExitCode.success : ExitCode.failure
    }

    /// The values both lanes share: inputs, selection, reports, console.
    /// - Returns: the run's shared options.
    /// - Throws: `UsageError` for a value that does not convert.
    static func runOptions(_ arguments: ParsedArguments) throws(UsageError) -> RunOptions {
        var run = RunOptions(paths: arguments.positionals)
        run.inputs.maxLine = try SharedOptions.maxLine(arguments)
        run.selection.filter = arguments.value(.filter)
        let shard = try arguments.value(.shard, as: .shard) ?? Shard(index: 1, count: 1)
        run.selection.shard = (shard.index, shard.count)
        run.selection.jobs = try SharedOptions.jobs(arguments)
        run.reports = ReportPaths(junit: arguments.value(.junit), json: arguments.value(.json), html: arguments.value(.html))
        let quiet = arguments.has(.quiet)
        run.console = RunOptions.Console(
            color: arguments.has(.color), quiet: quiet, progress: !quiet && isatty(STDERR_FILENO) != 0,
            allowEmpty: arguments.has(.allowEmpty))
        return run
    }

    /// The `--known-failing` list or the `--expect` file, if one was given.
    static func knownFailing(_ arguments: ParsedArguments) throws(RunError) -> Expectations? {
        switch (arguments.value(.knownFailing), arguments.value(.expect)) {
        case (nil, nil): return nil
        case (_?, _?): throw RunError.usage("give one of --known-failing and --expect, not both")
        case (let path?, nil):
            do throws(CorpusError) {
                return try Expectations(knownFailing: String(decoding: try FileBytes.read(path), as: UTF8.self), file: path)
            } catch {
                throw RunError.input(error)
            }
        case (nil, let path?):
            do throws(CorpusError) {
                return try Expectations(text: String(decoding: try FileBytes.read(path), as: UTF8.self), file: path)
            } catch {
                throw RunError.input(error)
            }
        }
    }
}
