import Corpus
import Foundation
import Harness
import KizunaWire
import Lanes
import ReferenceServer
import ServerContract

/// `accord shrink`: a recording whose replay fails, cut down to a corpus case.
enum ShrinkCommand: Command {
    static let spec = CommandSpec(
        name: "shrink",
        abstract: "Cut a recording whose replay against a server fails down to the fewest exchanges that still fail, kept as a transcript.",
        discussion: """
            Replays the recording against the server as 'accord run --server' does (a fresh target each time, the
            world the recording implies inferred again from what is left) and drops runs of exchanges (halves,
            quarters, ... single ones) while the replay still fails first with the same rule, at the same kind of
            exchange, saying the same thing (ids and numbers masked). What is left is converted to
            a transcript (its golden answers the recorded ones) and kept as a corpus case in --findings, which
            'accord run' replays. docs/explore.md.
            Exit status: 1 when the recording failed and was shrunk and kept, 0 when its replay passes (nothing to
            shrink), 64 for a usage or input error, 78 for a setup problem.
            """,
        arguments: [CommandSpec.Argument(name: "recording", help: "A recording (.jsonl) whose replay against the server fails.")],
        options: [
            OptionSpec(
                .server, value: "target",
                help: "The server it fails against: 'embedded', the URL of a server with the fixture endpoint, or a postgres:// URL."),
            OptionSpec(
                .fault, value: "name", help: "With --server embedded: seed the named server fault of 'accord selftest' (repeatable).",
                repeatable: true),
            OptionSpec(.findings, value: "folder", help: "Where the case is kept, as a corpus folder (default accord-findings)."),
            OptionSpec(.tier, value: "tier", help: "The tier an answer must reach: 'bound' (default) or 'pass' (byte-equal)."),
            OptionSpec(
                .postgresConfig, value: "file",
                help: "For a postgres:// target: its schema, role and synced tables (default: Accord's corpus domain)."),
        ]
            + SharedOptions.urlTarget(
                "The HS256 secret a URL target verifies JWTs with (default: $ACCORD_JWT_SECRET).",
                apikeyHelp: "The apikey header to send to a URL target.")
    )

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let file = arguments.positionals.first, arguments.positionals.count == 1 else {
            throw RunError.usage("give one recording\nSee 'accord help shrink'.")
        }
        guard let server = arguments.value(.server) else { throw RunError.usage("missing --server <target>\nSee 'accord help shrink'.") }
        let target = try ServerTargetSpec(parsing: server)
        let faults = try SeededFaults.parse(arguments.values(.fault), as: ServerFault.self, command: spec.name)
        let makeTarget = try await TargetChoice.factory(for: target, faults: faults, arguments)
        let recording = try RecordingFile.load(file)
        var shrink = RecordingShrink(makeTarget: makeTarget)
        if let tier = try arguments.value(.tier, as: .tier) { shrink = RecordingShrink(makeTarget: makeTarget, requiredTier: tier) }
        guard let shrunk = await shrink.shrink(recording, file: file) else {
            console.out("\(file): its \(recording.exchanges.count) exchanges replay against \(server) without a failure: nothing to shrink")
            return ExitCode.success
        }
        let findings = arguments.value(.findings) ?? "accord-findings"
        let message = shrunk.failures.first?.message ?? shrunk.fingerprint
        let kept = try RecordingShrink.keep(
            shrunk, in: findings,
            notes: [
                "shrunk by accord shrink \(file) --server \(server) from \(shrunk.from) exchanges to \(shrunk.recording.exchanges.count) in \(shrunk.tries) replays",
                "expected: fails on \(server) as the whole recording did: \(message)",
            ])
        console.out("FAIL \(message)")
        console.out(
            "accord: shrunk \(file) from \(shrunk.from) exchanges to \(shrunk.recording.exchanges.count) in \(shrunk.tries) replays; kept as \(kept.file)"
        )
        if faults.isEmpty {
            console.out("replay: accord run \(findings) --filter '\(kept.caseID)' --server \(server)")
        } else {
            // `accord run` seeds no fault: the broken server is `accord serve --fault` behind a URL.
            let names = faults.map { "--fault \($0.rawValue)" }.sorted().joined(separator: " ")
            console.out(
                "replay: accord serve --fixtures --jwt-secret S \(names), then accord run \(findings) --filter '\(kept.caseID)' --server http://127.0.0.1:54321 --jwt-secret S"
            )
        }
        return ExitCode.failure
    }
}
