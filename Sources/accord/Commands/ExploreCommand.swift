import Explore
import Foundation
import Harness
import KizunaWire
import Lanes
import ReferenceServer
import ServerContract

/// `accord explore`: generated scenarios against a server target, judged by three oracles,
/// each finding shrunk and kept as a transcript.
enum ExploreCommand: Command {
    static let spec = CommandSpec(
        name: "explore",
        abstract: "Generate scenarios, play them against a server build, and shrink what fails to a transcript.",
        discussion: """
            Generates KizunaSync scenarios from --seed (docs/explore.md): a few users and devices and another
            actor; local writes (inserts, updates, deletes, writes into another user's bucket, preconditions,
            transforms, hlc clocks), pushes (random batches, atomic or not, answers lost and resent), pulls
            (random limits, transfers left open), server changes (some held in an open transaction), reaps and
            stale schemas; each ends with every device pushing what it holds and pulling to completion, then
            an observer per user pulling from "0". Each scenario is realized on the embedded reference server
            (its answers are the golden ones), played against the target as 'accord run' plays a transcript,
            and judged by three oracles: every rule of the catalog on every exchange; the reference's answers,
            up to bindings (AC-GOLDEN names the step and both answers); and convergence (EX-CONVERGE: every
            device holds what its user's observer holds; EX-ACKED-WRITE: no applied write lost;
            EX-EXACTLY-ONCE: no mutation applied twice). A failing scenario is shrunk while it fails the same
            rule at the same kind of step, and kept in the --findings folder as a corpus case that 'accord run'
            replays. Scenario i is the same for a seed whatever the budget or --jobs; a stripe stops at its
            first finding (--keep-going: goes on, keeping each distinct finding once).
            With --client CMD instead of --server, the first device of each scenario is the client under test, driven
            through its driver (docs/driver-protocol.md): the scenario is first played by the reference client
            ('accord driver') against the embedded reference server, so its golden requests are what a correct
            client sends; then the transcript is played through the driver as 'accord run --client' plays a
            case, in about half the scenarios with the driver killed at one of the kill matrix's points
            (a driver that announces kill-safe; --no-kills: never) or its storage failing at one of the
            storage-fault matrix's points under libfiu (--no-storage-faults: never). A closing assert holds
            the client to the rows its user's observer pulled from "0".
            Exit status: 0 when nothing was found, 1 on a finding, 64 for a usage error, 78 for a setup
            problem.
            """,
        arguments: [],
        options: [
            OptionSpec(
                .server, value: "target",
                help:
                    "The server under test: 'embedded', the URL of a server with the fixture endpoint, or a postgres:// URL of a database with the KizunaSync pack."
            ),
            OptionSpec(.client, value: "command", help: "The client under test instead: a driver command line, e.g. 'accord driver'."),
            OptionSpec(flag: .noKills, help: "With --client: never kill the driver at a kill point."),
            OptionSpec(flag: .noStorageFaults, help: "With --client: never fail the driver's storage (no libfiu needed)."),
            OptionSpec(
                .timeout, value: "seconds", help: "With --client: how long a driver may take to answer one request (default 10)."),
            OptionSpec(.seed, value: "n", help: "The seed scenarios are generated from (default 1)."),
            OptionSpec(
                .budget, value: "budget",
                help: "How much to explore: a count of scenarios (default 200) or a time such as 60s, 10m, 1h."),
            OptionSpec(.findings, value: "folder", help: "Where findings are kept, as a corpus folder (default accord-findings)."),
            OptionSpec(
                flag: .keepGoing,
                help: "Go on after a finding and keep each distinct one once (up to 50), rather than stop at the first."),
            OptionSpec(
                .fault, value: "name", help: "With --server embedded: seed the named server fault of 'accord selftest' (repeatable).",
                repeatable: true),
            OptionSpec(
                .postgresConfig, value: "file",
                help: "For a postgres:// target: its schema, role and synced tables (default: Accord's corpus domain)."),
            OptionSpec(
                .tier, value: "tier",
                help: "The tier an answer must reach: 'bound' (default) or 'pass' (byte-equal)."),
        ]
            + SharedOptions.urlTarget(
                "The HS256 secret a URL target verifies JWTs with (default: $ACCORD_JWT_SECRET).",
                apikeyHelp: "The apikey header to send to a URL target.")
            + [SharedOptions.jobs] + SharedOptions.reports
            + [
                SharedOptions.color,
                OptionSpec(flag: .quiet, help: "Print the summary only: no line per finding, no progress line."),
            ]
    )

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        switch (arguments.value(.server), arguments.value(.client)) {
        case (nil, nil): throw RunError.usage("missing --server <target> or --client <command>\nSee 'accord help explore'.")
        case (_?, _?): throw RunError.usage("give one of --server and --client, not both\nSee 'accord help explore'.")
        case (nil, let command?): return try await client(command, arguments, console: console)
        case (let target?, nil): return try await server(target, arguments, console: console)
        }
    }

    /// The options both sides share.
    static func options(_ name: String, _ arguments: ParsedArguments) throws -> ExploreRun.Options {
        let seed = try arguments.value(.seed, as: OptionConversion(expected: "a whole number from 0") { UInt64($0) }) ?? 1
        let budget =
            try arguments.value(
                .budget, as: OptionConversion(expected: "a count of scenarios or a time such as 60s") { ExploreBudget(parsing: $0) })
            ?? .scenarios(200)
        var options = ExploreRun.Options(
            targetName: name, seed: seed, budget: budget, findings: arguments.value(.findings) ?? "accord-findings")
        options.run = try RunCommand.runOptions(arguments)
        options.keepGoing = arguments.has(.keepGoing)
        return options
    }

    /// The reference the scenarios are realized on, numbering no-op writes as the target does.
    static let makeReference: ExploreRun.ReferenceFactory = { (noOpWrites) throws(TargetError) -> any KizunaSync.ServerTarget in
        try TargetChoice.embedded(noOpWrites: noOpWrites)()
    }

    static func server(_ server: String, _ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        for option in [OptionKey.noKills, .noStorageFaults, .timeout] where arguments.has(option) {
            throw RunError.usage("\(option) applies with --client only")
        }
        let target = try ServerTargetSpec(parsing: server)
        var options = try options(server, arguments)
        if let tier = try arguments.value(.tier, as: .tier) { options.requiredTier = tier }
        let faults = try SeededFaults.parse(arguments.values(.fault), as: ServerFault.self, command: spec.name)
        let makeTarget = try await TargetChoice.factory(for: target, faults: faults, arguments)
        if target.isShared { options.run.selection.jobs = 1 }
        let lane = ExploreRun(options, makeTarget: makeTarget, makeReference: makeReference)
        let passed = try await LaneRunner(options.run).run(lane) { console.out($0) }
        return passed ? ExitCode.success : ExitCode.failure
    }

    static func client(_ command: String, _ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        for option in [OptionKey.tier, .fault, .postgresConfig, .jwtSecret, .apikey] where arguments.has(option) {
            throw RunError.usage("\(option) applies with --server only; with --client the scenarios are realized on the embedded reference")
        }
        let resolved = DriverCommandLine.resolve(command)
        guard !resolved.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RunError.usage("--client takes a command line, found ''")
        }
        let golden = DriverCommandLine.resolve("accord driver")
        var side = ExploreRun.ClientSide(
            name: command,
            launch: { (environment: [String: String]) throws(RunError) in try ProcessDriver(command: resolved, environment: environment) },
            golden: { () throws(RunError) in try ProcessDriver(command: golden) })
        side.kills = !arguments.has(.noKills)
        side.storageFaults = !arguments.has(.noStorageFaults)
        let timeout = OptionConversion<Double>.seconds(in: Double.leastNonzeroMagnitude...3600, expected: "seconds between 0 and 3600")
        if let seconds = try arguments.value(.timeout, as: timeout) { side.requestTimeout = .seconds(seconds) }
        let options = try options(command, arguments)
        let lane = ExploreRun(options, client: side, makeReference: makeReference)
        let passed = try await LaneRunner(options.run).run(lane) { console.out($0) }
        return passed ? ExitCode.success : ExitCode.failure
    }
}

extension OptionKey {
    static let seed = OptionKey("seed")
    static let budget = OptionKey("budget")
    static let findings = OptionKey("findings")
    static let keepGoing = OptionKey("keep-going")
    static let noKills = OptionKey("no-kills")
    static let noStorageFaults = OptionKey("no-storage-faults")
}
